import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { CardStatus } from '../../../../machines/domain/card-transitions';
import type { CardHistoryItem, MemberCardDetail } from '../../../api/cards';
import type { Paged } from '../../../domain/envelope';
import { Errors } from '../../../domain/errors';
import { shanghaiDate } from '../../../domain/time';
import { apiFrom } from '../../api-context';
import { clockFrom } from '../../app-clock';
import { parseId } from '../../ui/data-or';

export interface CardDetailData {
  card: MemberCardDetail | null;
  /** the card's status (stored; a card past its end was written expired by the server's time-passing job) */
  status: CardStatus | null;
  /** page 0 of the card's history */
  history: Paged<CardHistoryItem> | null;
  /** today in Shanghai by the server's clock (the first day a freeze may start) */
  today: string;
}

const none: CardDetailData = { card: null, status: null, history: null, today: '' };

/**
 * The loader of both card pages: my card of `?id=` and the first `historyPageSize` lines of its
 * history. A missing, malformed, unknown or another member's id is the not-found state (404).
 */
export function cardDetailLoader(historyPageSize: number) {
  return async ({ context, request }: LoaderFunctionArgs) => {
    const id = parseId(new URL(request.url).searchParams.get('id'));
    if (id === null) return data<CardDetailData>(none, { status: 404 });
    const api = apiFrom(context);
    const [r, h] = await Promise.all([api.cards.card(id), api.cards.cardHistory({ id, pagenum: 0, pagesize: historyPageSize })]);
    if (r.code === Errors.notFound.code || r.code === 404 || r.code === 400) return data<CardDetailData>(none, { status: 404 });
    if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
    const history = h.code === 200 ? h.data : null;
    return data<CardDetailData>({ card: r.data, status: r.data.status, history, today: shanghaiDate(clockFrom(context).now()) });
  };
}
