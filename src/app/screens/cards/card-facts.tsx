import { Trans } from '@lingui/react/macro';
import { shanghaiDate, lastValidDay } from '../../../domain/time';
import { cardFrequency, cardValidity, type CardFacts } from './card-view-rules';

/** A card's frequency (spec §3): "剩余4/10次", or unlimited for a time-based card. */
export function CardFrequencyText(props: { card: Pick<CardFacts, 'usesTotal' | 'usesLeft' | 'status'> }) {
  const f = cardFrequency(props.card);
  if (f.kind === 'ended') return <>—</>;
  if (f.kind === 'unlimited') return <Trans>不限次数</Trans>;
  return (
    <Trans>
      剩余{f.left}/{f.total}次
    </Trans>
  );
}

/** A card's validity (spec §3 start and end), or how long it runs once its first booking activates it. */
export function CardValidityText(props: { card: Pick<CardFacts, 'status' | 'validFrom' | 'validUntil' | 'validityDays'> }) {
  const v = cardValidity(props.card);
  if (v.kind === 'ended') return <Trans>已停止使用</Trans>;
  if (v.kind === 'from-first-booking') {
    return v.days !== null ? <Trans>首次预约后生效，有效{v.days}天</Trans> : <Trans>首次预约后生效</Trans>;
  }
  const from = v.from ? shanghaiDate(v.from) : '';
  const until = v.until ? lastValidDay(new Date(v.until)) : '';
  if (from && until) return <>{`${from} ~ ${until}`}</>;
  if (until) return <Trans>有效期至{until}</Trans>;
  return <Trans>长期有效</Trans>;
}
