import { assign, fromPromise, setup } from 'xstate';
import type { PhotoView } from '../src/api/booking';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { PHOTO_MAX_BYTES } from '../src/domain/photo-review';

export interface PhotoUploadContext {
  /** the prepared image (base64), kept for a retry */
  image?: string;
  /** the server's refusal, e.g. 70045 already submitted, 70009 image too large */
  errorCode?: number;
}

export type PhotoUploadEvent =
  | { type: 'photo.ready'; image: string; bytes: number }
  | { type: 'photo.unreadable' }
  | { type: 'network.retry' };

/**
 * Uploading the member's front photo for review (/takecourse/takelistm_yoga, decision 007). The
 * screen scales the chosen picture down and sends photo.ready (or photo.unreadable); a picture still
 * over the limit is refused here before any request; then uploading, done, refused with the
 * server's code, or unreachable with retry. Effects are provided: actor upload, action photoChanged.
 * Tags say what the upload shows: `busy` the photo is in flight (the picker is dimmed and disabled),
 * `tooLarge`, `unreadable` the line under it says so, `refused` the server's reason, `unreachable`
 * "network unreachable" with the retry.
 */
export const photoUploadMachine = setup({
  types: {
    context: {} as PhotoUploadContext,
    events: {} as PhotoUploadEvent,
    tags: {} as 'busy' | 'tooLarge' | 'unreadable' | 'refused' | 'unreachable',
  },
  actors: {
    upload: fromPromise<Envelope<PhotoView>, { image: string }>(async () => {
      throw new Error('upload is provided by the app');
    }),
  },
  actions: {
    keepImage: assign({ image: (_, params: { image: string }) => params.image, errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    photoChanged: () => {},
  },
  guards: {
    tooLarge: (_, params: { bytes: number }) => params.bytes > PHOTO_MAX_BYTES,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'photoUpload',
  context: {},
  initial: 'choosing',
  states: {
    choosing: {
      description: 'The member picks a photo (the booking photo the staff review).',
      initial: 'idle',
      states: {
        idle: { description: 'Nothing said: the member can pick a photo.' },
        tooLarge: {
          tags: ['tooLarge'],
          description: 'The photo picked is over the size limit: this is said, and the member can pick another.',
        },
        unreadable: {
          tags: ['unreadable'],
          description: 'The file picked could not be read as an image: this is said, and the member can pick another.',
        },
        refused: { tags: ['refused'], description: 'The server refused the photo: the reason is said, and the member can pick another.' },
      },
      on: {
        'photo.ready': [
          { guard: { type: 'tooLarge', params: ({ event }) => ({ bytes: event.bytes }) }, target: '.tooLarge' },
          { target: 'uploading', actions: { type: 'keepImage', params: ({ event }) => ({ image: event.image }) } },
        ],
        'photo.unreadable': '.unreadable',
      },
    },
    uploading: {
      tags: ['busy'],
      description: 'The photo is being uploaded; the member waits.',
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context }) => ({ image: context.image ?? '' }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'choosing.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'uploaded', actions: 'photoChanged' },
        ],
        onError: 'unreachable',
      },
    },
    unreachable: {
      tags: ['unreachable'],
      description: 'The upload did not reach the server: "network unreachable" is shown with a retry that sends the same photo again.',
      on: { 'network.retry': 'uploading' },
    },
    uploaded: { description: 'The photo is saved and shown as under review.', type: 'final' },
  },
});
