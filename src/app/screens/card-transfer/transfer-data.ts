import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { MemberCardDetail } from '../../../api/cards';
import type { MyTransfer } from '../../../api/card-transfers';
import { Errors } from '../../../domain/errors';
import { apiFrom } from '../../api-context';
import { dataOr, parseId } from '../../ui/data-or';

export interface TransferPageData {
  card: MemberCardDetail | null;
  /** my latest application on the card (null when none) */
  transfer: MyTransfer | null;
  /** my own phone (GET /customers/me): the apply form says at once that a card is not transferred to oneself */
  ownPhone: string | null;
}

const none: TransferPageData = { card: null, transfer: null, ownPhone: null };

/**
 * The loader of the three transfer pages: my card of `?id=`, my latest application on it and my phone. A
 * missing, malformed, unknown or another member's id is the not-found state (404).
 */
export async function transferLoader({ context, request }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return data<TransferPageData>(none, { status: 404 });
  const api = apiFrom(context);
  const [c, t, me] = await Promise.all([api.cards.card(id), api.cardTransfers.mine(id), dataOr(api.auth.me(), null)]);
  if (c.code === Errors.notFound.code || c.code === 404 || c.code === 400) return data<TransferPageData>(none, { status: 404 });
  if (c.code !== 200) throw new Response(null, { status: c.code === 401 ? 401 : 503 });
  return data<TransferPageData>({ card: c.data, transfer: t.code === 200 ? t.data : null, ownPhone: me?.phone ?? null });
}

/** The transfer pages' paths for one card. */
export const transferPolicyPath = (cardId: number) => `/mine/transfer?id=${cardId}`;
export const transferApplyPath = (cardId: number) => `/mine/transferapply?id=${cardId}`;
export const transferStatePath = (cardId: number) => `/mine/transferstate?id=${cardId}`;
