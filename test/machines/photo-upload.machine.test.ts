import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { photoUploadMachine, type PhotoUploadContext } from '../../machines/photo-upload.machine';
import { PHOTO_MAX_BYTES } from '../../src/domain/photo-review';
import { defineModelTest } from './support/define-model-test';

const reviewing = { code: 200, status: true, data: { status: 'reviewing', photoId: 1, reason: null, uploadedAt: '2026-11-22T08:00:00Z', reviewedAt: null, canUpload: false } };
const closed = { code: 70045, status: false, data: null };

defineModelTest({
  machine: photoUploadMachine,
  inputs: { 'a member without a photo': undefined },
  cases: {
    'photo.ready': [
      { image: 'aGVsbG8=', bytes: 5 },
      { image: 'big', bytes: PHOTO_MAX_BYTES + 1 },
    ],
    'xstate.done.actor.upload': [{ output: reviewing }, { output: closed }],
    'xstate.error.actor.upload': [{ error: new Error('network') }],
  },
  project: (c: PhotoUploadContext) => ({ image: !!c.image, errorCode: c.errorCode ?? null }),
});

describe('photo-upload machine', () => {
  it('refuses a picture over the limit before any request, and retries the same image after a network failure', async () => {
    const sent: string[] = [];
    let fail = true;
    let changed = 0;
    const actor = createActor(
      photoUploadMachine.provide({
        actors: {
          upload: fromPromise(async ({ input }) => {
            sent.push(input.image);
            if (fail) throw new Error('network');
            return reviewing as never;
          }),
        },
        actions: { photoChanged: () => void changed++ },
      }),
    ).start();
    actor.send({ type: 'photo.ready', image: 'x', bytes: PHOTO_MAX_BYTES + 1 });
    expect(actor.getSnapshot().value).toEqual({ choosing: 'tooLarge' });
    expect(sent).toEqual([]);
    actor.send({ type: 'photo.ready', image: 'small', bytes: 100 });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('unreachable');
    fail = false;
    actor.send({ type: 'retry' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('uploaded');
    expect(sent).toEqual(['small', 'small']);
    expect(changed).toBe(1);
  });
});
