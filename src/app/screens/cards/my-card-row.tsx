import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { CardStatus } from '../../../../machines/domain/card-transitions';
import type { MemberCard } from '../../../api/booking';
import { PaintFirstLink } from '../../ui/paint-first-link';
import { CardFrequencyText, CardValidityText } from './card-facts';
import { CARD_STATUS_LABELS, cardStatusBadgeClass } from './card-labels';

/** The /mine/carddetail page of one of my cards. */
export function myCardPath(id: number): string {
  return `/mine/carddetail?id=${id}`;
}

/**
 * One of my cards on /vipcard: name, number, status, what is left and until when; opens its detail.
 * A family main card the member holds as a sub card (decision 040) is marked so.
 */
export function MyCardRow(props: { card: MemberCard; status: CardStatus }) {
  const { i18n } = useLingui();
  const c = props.card;
  const dim = props.status !== 'in_use' && props.status !== 'inactive';
  return (
    <PaintFirstLink
      showOpening
      to={myCardPath(c.id)}
      className={`block rounded-xl p-4 active:opacity-80 aria-busy:opacity-60 ${dim ? 'bg-white/70 text-black/60' : 'bg-gradient-to-br from-primary to-primary/70 text-white'}`}
      data-my-card={c.id}
      data-status={props.status}
    >
      <span className="flex items-center justify-between gap-2">
        <span className="truncate text-lg font-semibold">{c.name}</span>
        <span className={cardStatusBadgeClass(props.status)} data-card-status>
          {i18n._(CARD_STATUS_LABELS[props.status])}
        </span>
      </span>
      <span className="mt-1 flex items-center gap-2 text-xs tabular-nums">
        <span className="opacity-80">{c.number}</span>
        {c.familySub && (
          <span className="rounded-full border border-current px-2 py-0.5" data-family-sub>
            <Trans context="card held as a sub card">亲情卡副卡</Trans>
          </span>
        )}
      </span>
      <span className="mt-3 flex justify-between gap-2 text-sm tabular-nums">
        <span>
          <CardFrequencyText card={{ ...c, status: props.status }} />
        </span>
        <span className="truncate">
          <CardValidityText card={{ ...c, status: props.status }} />
        </span>
      </span>
    </PaintFirstLink>
  );
}
