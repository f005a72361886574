import { assign, setup } from 'xstate';

/** What can happen to one membership card. */
export type CardEvent =
  | { type: 'card.activate' }
  | { type: 'card.freeze' }
  | { type: 'card.planFreeze' }
  | { type: 'card.freezeStarts' }
  | { type: 'card.unfreeze' }
  | { type: 'card.freezeEnds' }
  | { type: 'card.transfer' }
  | { type: 'card.extend' }
  | { type: 'card.refund' }
  | { type: 'card.expire' }
  | { type: 'card.changeAdviser' };

/** Facts about a card that the chart's guards read. */
export interface CardInput {
  /** the card came to its holder by a transfer: it may not be transferred again (spec §5 once per card) */
  receivedByTransfer: boolean;
  /** a freeze from a later day is stored (frozen from/until on a card in use, decision 024) */
  freezePlanned: boolean;
}

export type CardContext = CardInput;

/**
 * The lifecycle of one membership card (spec §4 card status). A bought card is inactive until it is
 * activated, by hand or by its first successful booking. A card in use may be frozen (and unfrozen),
 * transferred once (the recipient's new card cannot be transferred again), extended or refunded; it
 * expires at the end of its validity. Extension is allowed only in use or expired (an
 * expired card extended is in use again). A freeze asked from today freezes the card at once; one
 * asked from a later day is planned (the card stays in use, the plan stored) and starts by the
 * time-passing job on its first day; a frozen card is unfrozen by the job after its last day, or
 * earlier by the member, who may also call off a planned freeze (decision 024). A refund ends a card (invalid). Staff
 * cannot void a card by hand: the spec names no such operation, and a chart event that nothing can
 * cause would be a promise the server does not keep (decision 016); a card is given up by its refund. State names
 * are the stored `member_cards.status` values. The server checks every change against this chart;
 * the app reads which operations a card offers.
 */
export const cardMachine = setup({
  types: {
    context: {} as CardContext,
    events: {} as CardEvent,
    input: {} as CardInput,
  },
  guards: {
    transferable: ({ context }) => !context.receivedByTransfer,
    transferableNow: ({ context }) => !context.receivedByTransfer && !context.freezePlanned,
    freezePlanned: ({ context }) => context.freezePlanned,
    noFreezePlanned: ({ context }) => !context.freezePlanned,
  },
  actions: {
    planFreeze: assign({ freezePlanned: true }),
    dropFreezePlan: assign({ freezePlanned: false }),
  },
}).createMachine({
  id: 'card',
  context: ({ input }) => ({ receivedByTransfer: input.receivedByTransfer, freezePlanned: input.freezePlanned }),
  initial: 'inactive',
  states: {
    inactive: {
      description:
        'Bought, not started: its validity starts when it is activated (its first booking); it can be transferred or refunded whole.',
      on: {
        'card.activate': 'in_use',
        'card.transfer': { guard: 'transferable', target: 'transferred' },
        'card.refund': 'invalid',
        'card.changeAdviser': 'inactive',
      },
    },
    in_use: {
      description:
        'Active: books classes within its validity and uses; can be frozen (from today, or planned from a later day: then it books no class in the planned days and the plan can be called off), extended, transferred (unless it was received by transfer, or a freeze is planned) or refunded.',
      on: {
        'card.freeze': { guard: 'noFreezePlanned', target: 'frozen' },
        'card.planFreeze': { guard: 'noFreezePlanned', target: 'in_use', actions: 'planFreeze' },
        'card.freezeStarts': { guard: 'freezePlanned', target: 'frozen', actions: 'dropFreezePlan' },
        'card.unfreeze': { guard: 'freezePlanned', target: 'in_use', actions: 'dropFreezePlan' },
        // a planned freeze's days were added to the validity end: it is called off before a transfer (decision 026)
        'card.transfer': { guard: 'transferableNow', target: 'transferred' },
        'card.extend': 'in_use',
        'card.refund': 'invalid',
        // a planned freeze starts before the validity ends (its days were added to it)
        'card.expire': { guard: 'noFreezePlanned', target: 'expired' },
        'card.changeAdviser': 'in_use',
      },
    },
    frozen: {
      description:
        'Paused: cannot book; its validity end moves later by the frozen days; unfreezes after its end date (the job) or when the member asks (the days not frozen are taken back).',
      on: {
        'card.unfreeze': 'in_use',
        'card.freezeEnds': 'in_use',
        'card.refund': 'invalid',
        'card.changeAdviser': 'frozen',
      },
    },
    expired: {
      description: 'Past its validity end (written by the time-passing job): cannot book; an extension brings it back into use.',
      on: {
        'card.extend': 'in_use',
        'card.changeAdviser': 'expired',
      },
    },
    transferred: {
      description:
        "Given to another member by an approved transfer: it leaves this member's cards; the receiver holds a new card marked received by transfer.",
      type: 'final',
    },
    invalid: { description: 'Refunded: cannot book, and never comes back.', type: 'final' },
  },
});
