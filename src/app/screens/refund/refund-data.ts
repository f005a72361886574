import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { MemberCardDetail } from '../../../api/cards';
import { Errors } from '../../../domain/errors';
import { apiFrom } from '../../api-context';
import { parseId } from '../../ui/data-or';

export interface RefundPageData {
  card: MemberCardDetail | null;
}

/**
 * The loader of /mine/refund: my card of `?id=` (its name on the page). A missing, malformed,
 * unknown or another member's id is the not-found state (404). The request and the quote are read by
 * the page's card-refund machine.
 */
export async function refundLoader({ context, request }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return data<RefundPageData>({ card: null }, { status: 404 });
  const c = await apiFrom(context).cards.card(id);
  if (c.code === Errors.notFound.code || c.code === 404 || c.code === 400) return data<RefundPageData>({ card: null }, { status: 404 });
  if (c.code !== 200) throw new Response(null, { status: c.code === 401 ? 401 : 503 });
  return data<RefundPageData>({ card: c.data });
}

/** The refund page of one card. */
export const refundPath = (cardId: number) => `/mine/refund?id=${cardId}`;
