import { assign, fromPromise, setup } from 'xstate';
import type { PhotoView } from '../src/api/booking';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { Errors } from '../src/domain/errors';
import { PHOTO_MAX_BYTES, type PhotoStatus } from '../src/domain/photo-review';

export interface AvatarUploadContext {
  /** the member's photo as the server last said */
  view?: PhotoView;
  /** the picture chosen, kept while it is resized */
  file?: Blob;
  /** the resized picture (base64), kept for a retry */
  image?: string;
  /** why the picture was refused: the server's code, or 70009 / 70047 said by the phone itself */
  errorCode?: number;
}

export type AvatarUploadEvent =
  | { type: 'file.chosen'; file: Blob }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' }
  | { type: 'review.refresh' };

/**
 * The member's avatar (/mine/setavatar, /uploadTop, /uploadTop_yoga; decision 042), which is the
 * front photo staff review for face check-in (decision 007): one photo, one review. The screen
 * reads the photo's review state (none, under review, rejected with the reason, passed, passed with
 * another upload allowed by staff); the member chooses a picture where an upload is open; the phone
 * resizes it (actor resize, a canvas) and refuses it before any request when it cannot read it or
 * it is still too large; otherwise the resized picture is shown with what sending it means (staff
 * review it, no other upload meanwhile, once passed another only through staff; decision 102) and
 * goes only on `confirm.accept` (`confirm.dismiss` returns to the picker); the upload goes, is refused with the server's reason, or is unreachable
 * with a retry of the same picture. Effects are provided: actors load, resize, upload.
 * Tags say what the screen shows: `unread` the review state is not read yet (loading, or it failed:
 * no photo shown), `picking` an upload is open (the picture picker shows), `busy` the picture is
 * resized or uploaded (the picker is dimmed and disabled), `previewing` the resized picture and what
 * sending it means, with send and choose again, `refused` the reason the picture was
 * refused, `unreachable` "network unreachable" with the retry (of the read or of the upload).
 * `end` a state where the flow is over though the chart still answers there (the photo rejected, choose another): the screen
 * offers the next thing to do (decision 103).
 */
export const photoAvatarMachine = setup({
  types: {
    context: {} as AvatarUploadContext,
    events: {} as AvatarUploadEvent,
    tags: {} as 'unread' | 'picking' | 'busy' | 'previewing' | 'refused' | 'unreachable' | 'end',
  },
  actors: {
    load: fromPromise<Envelope<PhotoView>>(async () => {
      throw new Error('load is provided by the app');
    }),
    resize: fromPromise<{ image: string; bytes: number }, { file: Blob }>(async () => {
      throw new Error('resize is provided by the app');
    }),
    upload: fromPromise<Envelope<PhotoView>, { image: string }>(async () => {
      throw new Error('upload is provided by the app');
    }),
  },
  actions: {
    keepView: assign({ view: (_, params: { view: PhotoView }) => params.view }),
    keepFile: assign({ file: (_, params: { file: Blob }) => params.file, errorCode: undefined }),
    keepImage: assign({ image: (_, params: { image: string }) => params.image, file: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code, file: undefined }),
    dropImage: assign({ image: undefined, errorCode: undefined }),
  },
  guards: {
    status: (_, params: { view: PhotoView | null; is: PhotoStatus }) => params.view?.status === params.is,
    failed: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
    tooLarge: (_, params: { bytes: number }) => params.bytes > PHOTO_MAX_BYTES,
  },
}).createMachine({
  id: 'photoAvatar',
  context: {},
  initial: 'loading',
  states: {
    loading: {
      tags: ['unread'],
      description: "The photo's review state is read.",
      invoke: {
        id: 'load',
        src: 'load',
        onDone: [
          { guard: { type: 'failed', params: ({ event }) => ({ envelope: event.output }) }, target: 'loadFailed' },
          {
            guard: { type: 'status', params: ({ event }) => ({ view: event.output.data, is: 'reviewing' }) },
            target: 'reviewing',
            actions: { type: 'keepView', params: ({ event }) => ({ view: event.output.data! }) },
          },
          {
            guard: { type: 'status', params: ({ event }) => ({ view: event.output.data, is: 'rejected' }) },
            target: 'rejected',
            actions: { type: 'keepView', params: ({ event }) => ({ view: event.output.data! }) },
          },
          {
            guard: { type: 'status', params: ({ event }) => ({ view: event.output.data, is: 'passed' }) },
            target: 'passed',
            actions: { type: 'keepView', params: ({ event }) => ({ view: event.output.data! }) },
          },
          {
            guard: { type: 'status', params: ({ event }) => ({ view: event.output.data, is: 'reopened' }) },
            target: 'replaceable',
            actions: { type: 'keepView', params: ({ event }) => ({ view: event.output.data! }) },
          },
          { target: 'choosing', actions: { type: 'keepView', params: ({ event }) => ({ view: event.output.data! }) } },
        ],
        onError: 'loadFailed',
      },
    },
    loadFailed: {
      tags: ['unread', 'unreachable'],
      description: 'The state could not be read: "network unreachable" with a retry.',
      on: { 'network.retry': 'loading' },
    },
    choosing: {
      tags: ['picking'],
      description: 'No photo yet: the member is asked for a front photo and chooses one.',
      on: { 'file.chosen': { target: 'resizing', actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) } } },
    },
    resizing: {
      tags: ['busy'],
      description: 'The phone scales the picture down (a canvas) before anything is sent.',
      invoke: {
        id: 'resize',
        src: 'resize',
        input: ({ context }) => ({ file: context.file! }),
        onDone: [
          {
            guard: { type: 'tooLarge', params: ({ event }) => ({ bytes: event.output.bytes }) },
            target: 'refused',
            actions: { type: 'keepCode', params: { code: Errors.imageTooLarge.code } },
          },
          { target: 'previewing', actions: { type: 'keepImage', params: ({ event }) => ({ image: event.output.image }) } },
        ],
        onError: { target: 'refused', actions: { type: 'keepCode', params: { code: Errors.photoType.code } } },
      },
    },
    previewing: {
      tags: ['previewing'],
      description:
        'The resized picture is shown with what sending it means: staff review it before it becomes the avatar and the check-in photo, no other upload while it is reviewed, and once passed another only through staff. "Send for review" uploads it; "choose again" returns to the picker with nothing sent.',
      on: {
        'confirm.accept': 'uploading',
        'confirm.dismiss': [
          {
            guard: { type: 'status', params: ({ context }) => ({ view: context.view ?? null, is: 'rejected' }) },
            target: 'rejected',
            actions: 'dropImage',
          },
          {
            guard: { type: 'status', params: ({ context }) => ({ view: context.view ?? null, is: 'reopened' }) },
            target: 'replaceable',
            actions: 'dropImage',
          },
          { target: 'choosing', actions: 'dropImage' },
        ],
      },
    },
    uploading: {
      tags: ['busy'],
      description: 'The picture is being uploaded; the member waits.',
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context }) => ({ image: context.image ?? '' }),
        onDone: [
          {
            guard: { type: 'failed', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'reviewing', actions: { type: 'keepView', params: ({ event }) => ({ view: event.output.data! }) } },
        ],
        onError: 'unreachable',
      },
    },
    unreachable: {
      tags: ['unreachable'],
      description: 'The upload did not reach the server: "network unreachable" with a retry that sends the same picture.',
      on: { 'network.retry': 'uploading' },
    },
    refused: {
      tags: ['picking', 'refused'],
      description:
        'The picture was refused (too large, not an image, or the server said why): the reason is shown and the member may choose another.',
      on: {
        'file.chosen': { target: 'resizing', actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) } },
      },
    },
    reviewing: {
      description: 'Under review: staff check it; no other upload; the member may look again.',
      on: { 'review.refresh': 'loading' },
    },
    rejected: {
      tags: ['picking', 'end'],
      description: 'Rejected with the reason staff gave; the member chooses another.',
      on: { 'file.chosen': { target: 'resizing', actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) } } },
    },
    passed: { description: 'Passed: the photo is the avatar on Mine; another upload only through staff ("contact staff").' },
    replaceable: {
      tags: ['picking'],
      description: 'Passed, and staff allowed another upload: the photo still counts; the member may choose a new one.',
      on: { 'file.chosen': { target: 'resizing', actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) } } },
    },
  },
});
