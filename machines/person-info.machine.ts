import { assign, fromPromise, setup } from 'xstate';
import type { PersonInfoBody, PersonInfoView } from '../src/api/person';
import type { TimeOfDay } from '../src/domain/catalog';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { idNumberProblem, validRealName } from '../src/domain/identity';

export interface PersonInfoInput {
  /** what the server holds, masked (null: nothing stored yet) */
  stored: PersonInfoView | null;
  /** the server's calendar day (Shanghai, YYYY-MM-DD): a birth date after it is refused, as the server refuses it */
  today?: string;
}

/** The optional part of the form: yoga age, favourite styles, practice time, how to be addressed. */
export interface PersonDetails {
  yogaAge: number | null;
  styles: string[];
  practiceTime: TimeOfDay | null;
  salutation: string;
}

export interface PersonInfoContext extends PersonInfoInput, PersonDetails {
  realName: string;
  idNumber: string;
  /** the server's refusal (70104: the name and ID number were used by a transfer or refund) */
  errorCode?: number;
}

export type PersonInfoEvent =
  | { type: 'realName.change'; value: string }
  | { type: 'idNumber.change'; value: string }
  | { type: 'details.change'; details: Partial<PersonDetails> }
  | { type: 'info.save' }
  | { type: 'info.edit' };

const blank: PersonDetails = { yogaAge: null, styles: [], practiceTime: null, salutation: '' };

/**
 * A member completes their personal information (/mine/improvePersonInfo; spec §3, §5; decision
 * 032): real name (required, at most 20 characters, not numeric) and ID number (a mainland resident
 * ID: its shape, a real birth date, the check character; the form says which is wrong), yoga age,
 * favourite styles, practice time, how to be addressed. Stored once, then shown masked; "edit" opens
 * the form again with the rest filled in and the name and ID number to be typed again (they are never
 * sent back whole). Effects are provided: actor saveInfo.
 * Tags say what the line under the form says (the screen keys its messages by them): `nameInvalid`,
 * `idFormat`, `idBirthDate`, `idCheckDigit` the field error of that name, `refused` the server's
 * reason for its code, `unreachable` "network unreachable".
 */
export const personInfoMachine = setup({
  types: {
    context: {} as PersonInfoContext,
    events: {} as PersonInfoEvent,
    input: {} as PersonInfoInput,
    tags: {} as 'nameInvalid' | 'idFormat' | 'idBirthDate' | 'idCheckDigit' | 'refused' | 'unreachable',
  },
  actors: {
    saveInfo: fromPromise<Envelope<PersonInfoView>, PersonInfoBody>(async () => {
      throw new Error('saveInfo is provided by the app');
    }),
  },
  actions: {
    setRealName: assign({ realName: (_, p: { value: string }) => p.value, errorCode: undefined }),
    setIdNumber: assign({ idNumber: (_, p: { value: string }) => p.value, errorCode: undefined }),
    setDetails: assign(({ context }, p: { details: Partial<PersonDetails> }) => ({ ...context, ...p.details, errorCode: undefined })),
    fillFromStored: assign(({ context }) => {
      const s = context.stored;
      return {
        realName: '',
        idNumber: '',
        errorCode: undefined,
        ...(s ? { yogaAge: s.yogaAge, styles: s.styles, practiceTime: s.practiceTime, salutation: s.salutation } : blank),
      };
    }),
    keepStored: assign({ stored: (_, p: { view: PersonInfoView }) => p.view, errorCode: undefined }),
    keepCode: assign({ errorCode: (_, p: { code: number }) => p.code }),
  },
  guards: {
    hasStored: ({ context }) => context.stored !== null,
    nameInvalid: ({ context }) => !validRealName(context.realName),
    idFormat: ({ context }) => idNumberProblem(context.idNumber, context.today) === 'format',
    idBirthDate: ({ context }) => idNumberProblem(context.idNumber, context.today) === 'birthDate',
    idCheckDigit: ({ context }) => idNumberProblem(context.idNumber, context.today) === 'checkDigit',
    refused: (_, p: { envelope: Envelope<unknown> }) => !isOk(p.envelope),
  },
}).createMachine({
  id: 'personInfo',
  context: ({ input }) => ({ ...input, ...blank, realName: '', idNumber: '' }),
  initial: 'start',
  states: {
    start: {
      description: 'Opens on what is stored: the masked view when there is something, the empty form when not.',
      always: [{ guard: 'hasStored', target: 'viewing' }, { target: 'editing' }],
    },
    viewing: {
      description:
        'What is stored, the real name and ID number masked; "edit" opens the form again (the name and ID number to be typed again).',
      on: { 'info.edit': { target: 'editing', actions: 'fillFromStored' } },
    },
    editing: {
      description: 'The form: real name, ID number, yoga age, favourite styles, practice time, how to be addressed, and save.',
      initial: 'clean',
      states: {
        clean: { description: 'Nothing said under the form: the member types.' },
        nameInvalid: {
          tags: ['nameInvalid'],
          description: 'Save was tapped with a real name that is empty, over 20 characters or a number: this is said.',
        },
        idFormat: { tags: ['idFormat'], description: 'The ID number is not 18 characters (17 digits and a digit or X): this is said.' },
        idBirthDate: {
          tags: ['idBirthDate'],
          description: 'The ID number’s birth date is not a real date, or is after today (the server’s day): this is said.',
        },
        idCheckDigit: { tags: ['idCheckDigit'], description: 'The ID number’s check character does not match the rest: this is said.' },
        refused: {
          tags: ['refused'],
          description:
            'The server refused (the name and ID number were used by a transfer or refund, or its own check): its reason is said.',
        },
        unreachable: {
          tags: ['unreachable'],
          description: 'The save did not reach the server: "network unreachable" is said; the member can save again.',
        },
      },
      on: {
        'realName.change': { target: '.clean', actions: { type: 'setRealName', params: ({ event }) => ({ value: event.value }) } },
        'idNumber.change': { target: '.clean', actions: { type: 'setIdNumber', params: ({ event }) => ({ value: event.value }) } },
        'details.change': { target: '.clean', actions: { type: 'setDetails', params: ({ event }) => ({ details: event.details }) } },
        'info.save': [
          { guard: 'nameInvalid', target: '.nameInvalid' },
          { guard: 'idFormat', target: '.idFormat' },
          { guard: 'idBirthDate', target: '.idBirthDate' },
          { guard: 'idCheckDigit', target: '.idCheckDigit' },
          { target: 'saving' },
        ],
      },
    },
    saving: {
      description: 'The information was sent: the save button shows it is working.',
      invoke: {
        id: 'saveInfo',
        src: 'saveInfo',
        input: ({ context }) => ({
          realName: context.realName.trim(),
          idNumber: context.idNumber.trim(),
          yogaAge: context.yogaAge,
          styles: context.styles,
          practiceTime: context.practiceTime,
          salutation: context.salutation.trim(),
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'editing.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'viewing', actions: { type: 'keepStored', params: ({ event }) => ({ view: event.output.data }) } },
        ],
        onError: 'editing.unreachable',
      },
    },
  },
});
