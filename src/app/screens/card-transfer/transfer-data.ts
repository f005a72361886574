import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { MemberCardDetail } from '../../../api/cards';
import type { MyTransfer } from '../../../api/card-transfers';
import { Errors } from '../../../domain/errors';
import { apiFrom } from '../../api-context';
import { parseId } from '../../ui/data-or';

export interface TransferPageData {
  card: MemberCardDetail | null;
  /** my latest application on the card (null when none) */
  transfer: MyTransfer | null;
}

const none: TransferPageData = { card: null, transfer: null };

/**
 * The loader of the three transfer pages: my card of `?id=` and my latest application on it. A
 * missing, malformed, unknown or another member's id is the not-found state (404).
 */
export async function transferLoader({ context, request }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return data<TransferPageData>(none, { status: 404 });
  const api = apiFrom(context);
  const [c, t] = await Promise.all([api.cards.card(id), api.cardTransfers.mine(id)]);
  if (c.code === Errors.notFound.code || c.code === 404 || c.code === 400) return data<TransferPageData>(none, { status: 404 });
  if (c.code !== 200) throw new Response(null, { status: c.code === 401 ? 401 : 503 });
  return data<TransferPageData>({ card: c.data, transfer: t.code === 200 ? t.data : null });
}

/** The transfer pages' paths for one card. */
export const transferPolicyPath = (cardId: number) => `/mine/transfer?id=${cardId}`;
export const transferApplyPath = (cardId: number) => `/mine/transferapply?id=${cardId}`;
export const transferStatePath = (cardId: number) => `/mine/transferstate?id=${cardId}`;
