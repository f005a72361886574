import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { CardStatus } from '../../../../machines/domain/card-transitions';
import type { MemberCardDetail } from '../../../api/cards';
import { CARD_STATUS_LABELS, cardStatusBadgeClass } from './card-labels';

/** The top of a card page: its name, number and status, drawn as the card; a card held as a family sub card says whose it is to manage (decision 040). */
export function CardHeader(props: { card: MemberCardDetail; status: CardStatus }) {
  const { i18n } = useLingui();
  const c = props.card;
  return (
    <header className="mx-4 my-4 rounded-xl bg-gradient-to-br from-primary to-primary/70 p-4 text-white" data-card-header={c.id}>
      <div className="flex items-center justify-between gap-2">
        <h1 className="truncate text-xl font-semibold">{c.name}</h1>
        <span className={cardStatusBadgeClass(props.status)} data-card-status={props.status}>
          {i18n._(CARD_STATUS_LABELS[props.status])}
        </span>
      </div>
      <p className="mt-1 text-sm tabular-nums opacity-85" data-card-number>
        {c.number}
      </p>
      {c.familySub && (
        <p className="mt-2 text-sm" data-family-sub>
          <Trans>亲情卡副卡：与主卡持有人共用次数和有效期，由主卡持有人管理</Trans>
        </p>
      )}
    </header>
  );
}
