// @vitest-environment jsdom
import { desc, eq } from 'drizzle-orm';
import { userEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { photoUploadMachine, type PhotoUploadContext } from '../../machines/photo-upload.machine';
import { PHOTO_MAX_BYTES } from '../../src/domain/photo-review';
import { memberPhotos } from '../../src/server/db/schema/index';
import { newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * The member's front photo for face check-in (/takecourse/takelistm_yoga, spec §4 photo review,
 * decision 007): the phone scales the chosen picture down; a picture still over the limit or one it
 * cannot read is refused before any request; the server keeps the photo under review once; a second
 * upload is refused (here: one went from another phone meanwhile); a lost answer is retried.
 *
 * jsdom decodes no images: the browser's part (createImageBitmap, a canvas's JPEG) is supplied here,
 * answering a real small JPEG for `face.jpg`, one over the limit for `huge.jpg`, and failing for a
 * file that is not a picture. The app's own code (the screen, preparePhoto, the machine) runs as is.
 */
const h = await startScreenHarness({ seed: true });

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
const HUGE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(PHOTO_MAX_BYTES + 10, 1), Buffer.from([0xff, 0xd9])]);
let decoding: Buffer = JPEG;
/** supplies the browser's image decoding; again at each path's start, since a file run beside
 * this one (the end-state test loads many) may have supplied its own */
function supplyImageDecoding() {
  Object.assign(window, {
    createImageBitmap: async (file: File) => {
      if (!file.type.startsWith('image/')) throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
      decoding = file.name === 'huge.jpg' ? HUGE : JPEG;
      return { width: 2000, height: 1500, close() {} };
    },
  });
  HTMLCanvasElement.prototype.getContext = (() => ({ drawImage() {} })) as never;
  HTMLCanvasElement.prototype.toDataURL = () => `data:image/jpeg;base64,${decoding.toString('base64')}`;
}
supplyImageDecoding();

interface Member {
  token: string;
  accountId: number;
  /** the last file the member chose */
  chose?: 'face.jpg' | 'huge.jpg' | 'notes.txt';
}
type W = World<Member>;

const ok = { code: 200, status: true, data: { status: 'reviewing' } };
const closed = { code: 70045, status: false, data: null };

const uploads = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'upload');
const feedback = () => document.querySelector('[data-photo-feedback]')?.textContent || null;
const input = () => document.querySelector<HTMLInputElement>('[data-photo-input]');
const photos = (w: W) =>
  h.server.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, w.accountId)).orderBy(desc(memberPhotos.id));

async function choose(w: W, name: NonNullable<Member['chose']>) {
  w.chose = name;
  const file = new File([name === 'notes.txt' ? 'not a picture' : 'pixels'], name, {
    type: name === 'notes.txt' ? 'text/plain' : 'image/jpeg',
  });
  // a phone may offer any file despite `accept`; the screen must cope
  await userEvent.setup({ applyAccept: false, delay: null }).upload(input()!, file);
}

/** before any photo is kept: the picker offered, the line says `line`, nothing stored */
async function choosing(w: W, line: string | null) {
  expect(input()?.disabled).toBe(false);
  expect(feedback()).toBe(line);
  const elsewhere = uploads(w).some((r) => r.answer === closed.code);
  expect((await photos(w)).length, 'nothing kept from this screen').toBe(elsewhere ? 1 : 0);
}

defineScreenPaths<Member>(h, {
  machine: photoUploadMachine,
  screen: '/takecourse/takelistm_yoga',
  cases: {
    'photo.ready': [
      { image: 'a face', bytes: JPEG.length },
      { image: 'too big', bytes: HUGE.length },
    ],
    'xstate.done.actor.upload': [
      { output: ok, answer: { server: true } },
      {
        output: closed,
        // a photo went from another phone a moment ago: it is under review, one at a time
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.call('POST', '/api/customers/photo', { token: w.token, body: { image: JPEG.toString('base64') } }).then(() => {}),
        },
      },
    ],
    'xstate.error.actor.upload': [{ error: new Error('network') }],
  },
  // once a photo is under review, it stays so
  offer: (e, s) =>
    !(
      e.type === 'xstate.done.actor.upload' &&
      (e.output as typeof ok).code === 200 &&
      (s.context as PhotoUploadContext).errorCode === closed.code
    ),
  project: (c: PhotoUploadContext) => ({ image: c.image ?? null, errorCode: c.errorCode ?? null }),
  requests: { upload: { method: 'POST', path: /^\/api\/customers\/photo$/ } },

  async start(hh) {
    supplyImageDecoding();
    const m = await newMember(hh.server);
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open('/takecourse/takelistm_yoga');
    return { ui, token: m.token, accountId: m.id };
  },

  events: {
    'photo.ready': (w, e) => choose(w, e.image === 'a face' ? 'face.jpg' : 'huge.jpg'),
    'photo.unreadable': (w) => choose(w, 'notes.txt'),
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    'choosing.idle': (w) => choosing(w, null),
    'choosing.tooLarge': async (w) => {
      expect(w.chose).toBe('huge.jpg');
      await choosing(w, '图片太大，不能超过 512 KB');
    },
    'choosing.unreadable': async (w) => {
      expect(w.chose).toBe('notes.txt');
      await choosing(w, '无法读取这张图片，请换一张照片');
    },
    'choosing.refused': async (w) => {
      expect(uploads(w).at(-1)?.answer).toBe(closed.code);
      await choosing(w, '照片已提交，如需更换请联系门店工作人员');
    },
    uploading: (w) => {
      expect(input()?.disabled).toBe(true);
      expect(screen.getByText('上传中…')).toBeTruthy();
      expect(w.held.get('upload')?.map((r) => r.body)).toEqual([{ image: JPEG.toString('base64') }]);
    },
    unreachable: async (w) => {
      expect(uploads(w).at(-1)?.answer).toBe('network');
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(await photos(w)).toEqual([]);
    },
    // kept once, under review, and the card says so
    uploaded: async (w) => {
      const kept = await photos(w);
      expect(kept.map((p) => [p.state, p.size])).toEqual([['reviewing', JPEG.length]]);
      expect(document.querySelector('[data-photo-status]')?.getAttribute('data-photo-status')).toBe('reviewing');
      expect(input(), 'one photo at a time: no picker while it is reviewed').toBe(null);
    },
  },

  effects: {
    // a picture the phone refuses never reaches the server
    'photo.unreadable': (w, _e, before) => expect(uploads(w, before)).toEqual([]),
    'photo.ready': (w, _e, before) => expect(uploads(w, before).length).toBe(w.chose === 'huge.jpg' ? 0 : 1),
    // a retry sends the same picture again
    'network.retry': (w, _e, before) => expect(uploads(w, before).map((r) => r.body)).toEqual([{ image: JPEG.toString('base64') }]),
  },
});
