import { useLingui } from '@lingui/react';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { CardForClass } from '../../../api/booking';
import { lastValidDay } from '../../../domain/time';
import { REMINDER_LABELS } from './booking-labels';
import { refusalText } from '../../ui/refusal-message';

/** What a card has left: uses, or the end of its validity; an inactive card starts on first booking. */
function CardFacts(props: { card: CardForClass }) {
  const c = props.card;
  return (
    <span className="block text-xs text-black/60 tabular-nums">
      {/* two facts, told apart by a separator: a space alone runs them into one sentence in English */}
      {[
        c.usesLeft !== null ? <Trans key="uses">剩余{c.usesLeft}次</Trans> : null,
        c.status === 'inactive' ? (
          <Trans key="until">未激活</Trans>
        ) : c.validUntil ? (
          <Trans key="until">有效期至{lastValidDay(c.validUntil)}</Trans>
        ) : null,
      ]
        .filter(Boolean)
        .flatMap((fact, i) => (i === 0 ? [fact] : [' · ', fact]))}
    </span>
  );
}

/** Usable cards first (in the server's order), then the ones that cannot book this class: a member with many cards sees the choice at the top. */
export function choiceOrder(cards: readonly CardForClass[]): CardForClass[] {
  return [...cards.filter((c) => c.usable), ...cards.filter((c) => !c.usable)];
}

/** The member's cards when none can book this class: each with why not, so the member knows what to fix. */
export function CardsNotUsable(props: { cards: CardForClass[] }) {
  const { i18n } = useLingui();
  return (
    <ul className="mx-4 mb-4 space-y-2 text-left" aria-label={i18n._(msg`我的会员卡`)} data-cards-not-usable>
      {props.cards.map((c) => (
        <li key={c.id} data-card={c.id} data-usable="false" className="rounded-xl bg-white p-3 opacity-80">
          <span className="block truncate font-medium">{c.name}</span>
          <span className="block text-xs text-black/60">{c.number}</span>
          <CardFacts card={c} />
          <span className="mt-1 block text-xs text-rose-600">{refusalText(i18n, c.code, { serverMessage: c.message })}</span>
        </li>
      ))}
    </ul>
  );
}

/** The member's cards for this class as radio choices: usable ones selectable (first), others show why not. */
export function CardChoice(props: { cards: CardForClass[]; chosen: number | undefined; onChoose(id: number): void }) {
  const { i18n } = useLingui();
  return (
    <fieldset className="mx-4 space-y-2" data-card-choice>
      <legend className="mb-2 text-sm font-semibold text-black/70">
        <Trans>选择会员卡</Trans>
      </legend>
      {choiceOrder(props.cards).map((c) => (
        <label
          key={c.id}
          data-card={c.id}
          data-usable={c.usable}
          className={`flex items-start gap-3 rounded-xl bg-white p-3 ${c.usable ? 'cursor-pointer' : 'opacity-55'} ${props.chosen === c.id ? 'ring-2 ring-primary' : ''}`}
        >
          <input
            type="radio"
            name="card"
            value={c.id}
            checked={props.chosen === c.id}
            onChange={() => props.onChoose(c.id)}
            className="mt-1 h-4 w-4 shrink-0 accent-primary"
          />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">{c.name}</span>
            <span className="block text-xs text-black/60">{c.number}</span>
            <CardFacts card={c} />
            {!c.usable && (
              <span className="mt-1 block text-xs text-rose-600">{refusalText(i18n, c.code, { serverMessage: c.message })}</span>
            )}
            {c.usable && c.reminders.length > 0 && (
              <span className="mt-1 block text-xs text-amber-700">
                {c.reminders.map((r) => (
                  <span key={r} className="block">
                    {i18n._(REMINDER_LABELS[r])}
                  </span>
                ))}
              </span>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
