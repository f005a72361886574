import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { FriendPayResume } from '../../../../machines/friend-pay.machine';
import type { FriendInvitationView } from '../../../api/friend-pay';
import { apiFrom } from '../../api-context';
import { dataOr } from '../../ui/data-or';
import { resumeOf } from './friend-paths';

/** What the friend's page renders first: the invitation (null: no such link), what the page came back from, demo mode. */
export interface FriendPayData {
  token: string | null;
  invitation: FriendInvitationView | null;
  resume: FriendPayResume;
  /** demo mode: WeChat Pay is the local stand-in (its own bridge and cashier) */
  standIn: boolean;
}

const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** `?t=`: the invitation by its token (no login: the friend has no account); an unknown or malformed one is not found. */
export async function friendPayLoader({ context, request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const raw = search.get('t');
  const resume = resumeOf(search.get('step'));
  const none: FriendPayData = { token: null, invitation: null, resume, standIn: false };
  if (!raw || !TOKEN.test(raw)) return data(none, { status: 404 });
  const api = apiFrom(context);
  const [r, pay] = await Promise.all([
    api.friendPay.invitation(raw),
    dataOr(api.orders.payMethods(), { methods: [], standIn: false, unavailable: [] }),
  ]);
  if (r.code !== 200 && r.code !== 70004) throw new Response(null, { status: 503 });
  const found = r.code === 200 ? r.data : null;
  return data<FriendPayData>({ token: raw, invitation: found, resume, standIn: pay.standIn }, { status: found ? 200 : 404 });
}
