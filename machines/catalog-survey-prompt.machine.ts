import { assign, fromPromise, setup } from 'xstate';
import type { Survey, SurveyAnswer, SurveyState } from '../src/api/catalog';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';

export interface SurveyPromptInput {
  /** a member is asked; a visitor never is (spec §7: the survey is the member's) */
  member: boolean;
}

export interface SurveyPromptContext extends SurveyPromptInput {
  /** the survey the server gave to show */
  survey?: Survey;
  /** what the member chose: an option, or to be asked again in 7 days */
  choice?: { optionId: number } | { skip: true };
}

export type SurveyPromptEvent = { type: 'survey.answer'; optionId: number } | { type: 'survey.skip' };

/**
 * The survey prompt of the Homepage (spec §7 GET/POST /survey): members only, it asks the server
 * about 800 ms after the page has loaded (the page comes first) and floats the open survey above the
 * footer; the member answers, or skips it (the server puts it off 7 days). An answer is thanked with a
 * toast; a skip, a refusal (answered on another phone) or a lost answer just hides it: an answer
 * that did not arrive is asked again on a later visit.
 * Effects are provided: actors loadSurvey and sendAnswer; action thank (the toast).
 */
export const catalogSurveyPromptMachine = setup({
  types: {
    context: {} as SurveyPromptContext,
    events: {} as SurveyPromptEvent,
    input: {} as SurveyPromptInput,
  },
  actors: {
    loadSurvey: fromPromise<Envelope<Survey | null>>(async () => {
      throw new Error('loadSurvey is provided by the app');
    }),
    sendAnswer: fromPromise<Envelope<SurveyState>, SurveyAnswer>(async () => {
      throw new Error('sendAnswer is provided by the app');
    }),
  },
  actions: {
    keepSurvey: assign({ survey: (_, params: { survey: Survey }) => params.survey }),
    keepChoice: assign({ choice: (_, params: { choice: { optionId: number } | { skip: true } }) => params.choice }),
    thank: () => {},
  },
  guards: {
    member: ({ context }) => context.member,
    surveyOpen: (_, params: { envelope: Envelope<Survey | null> }) => isOk(params.envelope) && params.envelope.data !== null,
    answered: (_, params: { envelope: Envelope<SurveyState> }) => isOk(params.envelope) && params.envelope.data.answered,
  },
}).createMachine({
  id: 'catalogSurveyPrompt',
  context: ({ input }) => ({ member: input.member }),
  initial: 'deciding',
  states: {
    deciding: {
      description: 'Whether to ask at all: a member is asked, a visitor is not.',
      always: [{ guard: 'member', target: 'waiting' }, { target: 'hidden' }],
    },
    hidden: {
      description: 'A visitor: no prompt, and the server is not asked for a survey.',
    },
    waiting: {
      description:
        'A member on the Homepage: the page shows first; about 800 ms after it has loaded the app asks for a survey. Nothing is shown yet.',
      after: { 800: 'loading' },
    },
    loading: {
      description: 'The app asks the server for a survey to show this member now (nothing shown yet).',
      invoke: {
        id: 'loadSurvey',
        src: 'loadSurvey',
        onDone: [
          {
            guard: { type: 'surveyOpen', params: ({ event }) => ({ envelope: event.output }) },
            target: 'showing',
            actions: { type: 'keepSurvey', params: ({ event }) => ({ survey: event.output.data! }) },
          },
          { target: 'nothingToAsk' },
        ],
        onError: 'nothingToAsk',
      },
    },
    nothingToAsk: {
      description:
        'No survey for this member now (answered, skipped within 7 days, none open), or it could not be read: no prompt; a later visit asks again.',
    },
    showing: {
      description: 'The prompt floats above the footer with the question and its options, and a close button that puts it off for 7 days.',
      on: {
        'survey.answer': {
          target: 'sending',
          actions: { type: 'keepChoice', params: ({ event }) => ({ choice: { optionId: event.optionId } }) },
        },
        'survey.skip': { target: 'sending', actions: { type: 'keepChoice', params: () => ({ choice: { skip: true as const } }) } },
      },
    },
    sending: {
      description: 'The answer (or the skip) was sent: the prompt stays, its buttons disabled.',
      invoke: {
        id: 'sendAnswer',
        src: 'sendAnswer',
        input: ({ context }) => ({ surveyId: context.survey!.id, ...context.choice! }) as SurveyAnswer,
        onDone: [
          { guard: { type: 'answered', params: ({ event }) => ({ envelope: event.output }) }, target: 'thanked' },
          { target: 'closed' },
        ],
        onError: 'lost',
      },
    },
    thanked: {
      description: 'The server kept the answer: the prompt is gone and a toast thanks the member; the survey is not asked again.',
      entry: 'thank',
    },
    closed: {
      description:
        'Skipped (the server puts it off 7 days), or refused because it was answered on another phone: the prompt is gone, no thanks.',
    },
    lost: {
      description:
        'The answer did not reach the server: the prompt is gone without thanks; the survey stays open and is asked on a later visit.',
    },
  },
});
