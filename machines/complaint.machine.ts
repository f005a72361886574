import { assign, fromPromise, setup } from 'xstate';
import type { MyComplaint } from '../src/api/complaints';
import { complaintContentEmpty } from '../src/domain/complaint';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';

export interface ComplaintContext {
  content: string;
  clubId: number | null;
  /** the photos prepared on the phone (base64 JPEG), sent with the complaint */
  photos: string[];
  /** the complaint once filed (or the one opened), as the server last said */
  complaint: MyComplaint | null;
  /** the member's answer being sent */
  satisfied: boolean | null;
  /** the server's refusal: 70140 empty, 70142/70143 photos, 70141 already rated */
  errorCode?: number;
}

export interface ComplaintInput {
  /** an existing complaint of mine (/complain?id=), or none to write one (/complain/createcomplain) */
  complaint?: MyComplaint | null;
}

export type ComplaintEvent =
  | { type: 'content.change'; value: string }
  | { type: 'club.change'; clubId: number | null }
  | { type: 'photo.add'; image: string }
  | { type: 'photo.remove'; index: number }
  | { type: 'complaint.submit' }
  | { type: 'reply.check' }
  | { type: 'reply.rate'; satisfied: boolean }
  | { type: 'network.retry' };

export interface FileInput {
  content: string;
  clubId: number | null;
  photos: string[];
}

const replied = (c: MyComplaint | null) => c !== null && c.replied;

/**
 * One complaint of the member's (decision 033; spec §3 complaint, §5 content not empty):
 * written on /complain/createcomplain (content, optionally a club and up to three photos, scaled down
 * on the phone), filed, then awaited: "not replied yet", with a check for the reply; replied, the
 * member reads the reply and says whether they are satisfied, once. An existing complaint opened on
 * /complain?id= starts where the server says it is. Effects are provided: actors file (uploads the
 * photos, then files the complaint), load (reads it again), rate.
 * Tags: `end` the complaint filed and awaiting its reply, where the member's part is over though
 * they may check for the reply: the screen offers the next thing to do (decision 103).
 */
export const complaintMachine = setup({
  types: {
    context: {} as ComplaintContext,
    events: {} as ComplaintEvent,
    input: {} as ComplaintInput,
    tags: {} as 'end',
  },
  actors: {
    file: fromPromise<Envelope<MyComplaint>, FileInput>(async () => {
      throw new Error('file is provided by the app');
    }),
    load: fromPromise<Envelope<MyComplaint>, { id: number }>(async () => {
      throw new Error('load is provided by the app');
    }),
    rate: fromPromise<Envelope<MyComplaint>, { id: number; satisfied: boolean }>(async () => {
      throw new Error('rate is provided by the app');
    }),
  },
  actions: {
    setContent: assign({ content: (_, params: { value: string }) => params.value }),
    setClub: assign({ clubId: (_, params: { clubId: number | null }) => params.clubId }),
    addPhoto: assign({ photos: ({ context }, params: { image: string }) => [...context.photos, params.image] }),
    removePhoto: assign({ photos: ({ context }, params: { index: number }) => context.photos.filter((_, i) => i !== params.index) }),
    setSatisfied: assign({ satisfied: (_, params: { satisfied: boolean }) => params.satisfied }),
    keepComplaint: assign({ complaint: (_, params: { complaint: MyComplaint }) => params.complaint, errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    clearDraft: assign({ content: '', clubId: null, photos: [] }),
  },
  guards: {
    rated: ({ context }) => context.complaint !== null && context.complaint.satisfied !== null,
    replied: ({ context }) => replied(context.complaint),
    filed: ({ context }) => context.complaint !== null,
    blank: ({ context }) => complaintContentEmpty(context.content),
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
    repliedNow: (_, params: { envelope: Envelope<MyComplaint> }) => isOk(params.envelope) && replied(params.envelope.data),
  },
}).createMachine({
  id: 'complaintFlow',
  context: ({ input }) => ({ content: '', clubId: null, photos: [], complaint: input.complaint ?? null, satisfied: null }),
  initial: 'opening',
  states: {
    opening: {
      description: 'Decides where an opened complaint is: rated, replied, awaiting a reply, or a new one to write.',
      always: [
        { guard: 'rated', target: 'rated' },
        { guard: 'replied', target: 'replied' },
        { guard: 'filed', target: 'awaitingReply' },
        { target: 'composing' },
      ],
    },
    composing: {
      description:
        'Writing a complaint: the content, optionally a club and up to three photos (each can be taken out again); submit files it.',
      initial: 'idle',
      states: {
        idle: { description: 'Nothing said: the member writes.' },
        empty: { description: 'Submitted with no content: "please describe your complaint" is said, nothing is sent.' },
        refused: { description: 'The server refused it: the reason is said; the member can change it and submit again.' },
      },
      on: {
        'content.change': { target: '.idle', actions: { type: 'setContent', params: ({ event }) => ({ value: event.value }) } },
        'club.change': { actions: { type: 'setClub', params: ({ event }) => ({ clubId: event.clubId }) } },
        'photo.add': { actions: { type: 'addPhoto', params: ({ event }) => ({ image: event.image }) } },
        'photo.remove': { actions: { type: 'removePhoto', params: ({ event }) => ({ index: event.index }) } },
        'complaint.submit': [{ guard: 'blank', target: '.empty' }, { target: 'filing' }],
      },
    },
    filing: {
      description: 'The photos and the complaint are being sent; the member waits.',
      invoke: {
        id: 'file',
        src: 'file',
        input: ({ context }) => ({ content: context.content, clubId: context.clubId, photos: context.photos }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'composing.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            target: 'awaitingReply',
            actions: [{ type: 'keepComplaint', params: ({ event }) => ({ complaint: event.output.data }) }, 'clearDraft'],
          },
        ],
        onError: 'fileUnreachable',
      },
    },
    fileUnreachable: {
      description: 'The complaint did not reach the server: "network unreachable" with a retry that sends it again.',
      on: { 'network.retry': 'filing' },
    },
    awaitingReply: {
      tags: ['end'],
      description:
        'Filed, not replied yet: the complaint is shown as not replied; the member can check for a reply (and is notified of one).',
      initial: 'idle',
      states: {
        idle: { description: 'Shown as not replied.' },
        stillWaiting: { description: 'Checked: still no reply, and this is said.' },
        unreachable: { description: 'The check did not reach the server: "network unreachable" is said; the member can check again.' },
      },
      on: { 'reply.check': 'checking' },
    },
    checking: {
      description: 'Reading the complaint again for a reply.',
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ id: context.complaint?.id ?? 0 }),
        onDone: [
          {
            guard: { type: 'repliedNow', params: ({ event }) => ({ envelope: event.output }) },
            target: 'replied',
            actions: { type: 'keepComplaint', params: ({ event }) => ({ complaint: event.output.data }) },
          },
          { target: 'awaitingReply.stillWaiting' },
        ],
        onError: 'awaitingReply.unreachable',
      },
    },
    replied: {
      description: 'Replied: the reply is shown; the member says whether they are satisfied.',
      initial: 'idle',
      states: {
        idle: { description: 'The reply and the two answers: satisfied, not satisfied.' },
        refused: { description: 'The server refused the answer (already rated from another phone): the reason is said.' },
      },
      on: {
        'reply.rate': { target: 'rating', actions: { type: 'setSatisfied', params: ({ event }) => ({ satisfied: event.satisfied }) } },
      },
    },
    rating: {
      description: 'The answer is being sent; the member waits.',
      invoke: {
        id: 'rate',
        src: 'rate',
        input: ({ context }) => ({ id: context.complaint?.id ?? 0, satisfied: context.satisfied ?? false }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'replied.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'rated', actions: { type: 'keepComplaint', params: ({ event }) => ({ complaint: event.output.data }) } },
        ],
        onError: 'rateUnreachable',
      },
    },
    rateUnreachable: {
      description: 'The answer did not reach the server: "network unreachable" with a retry that sends it again.',
      on: { 'network.retry': 'rating' },
    },
    rated: { description: 'Rated: the reply and "satisfied" or "not satisfied" are shown; nothing more to do.', type: 'final' },
  },
});
