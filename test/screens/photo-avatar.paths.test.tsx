// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { photoAvatarMachine, type AvatarUploadContext } from '../../machines/photo-avatar.machine';
import { PHOTO_MAX_BYTES } from '../../src/domain/photo-review';
import { memberPhotos } from '../../src/server/db/schema/index';
import { newMember } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * The avatar (/mine/setavatar, spec §4 photo review, §5 "upload only once unless staff are
 * contacted", §8 image too large; decision 042): the screen reads the photo's review state from the
 * real server (made so by the path: uploads from another phone, staff passing, rejecting, allowing
 * another), the phone resizes the chosen picture and shows it with what sending means (reviewed,
 * no other upload meanwhile, once passed another only through staff; decision 102) before it is
 * sent; choose again sends nothing; the upload is kept once under review.
 *
 * jsdom decodes no images: the browser's part (createImageBitmap, a canvas's JPEG) is supplied
 * here and held until the path says how it ends: a small JPEG, one still over the limit, or a file
 * the browser cannot decode. The app's code (the screen, preparePhoto, the machine) runs as is.
 */
const h = await startScreenHarness();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
const HUGE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(PHOTO_MAX_BYTES + 10, 1), Buffer.from([0xff, 0xd9])]);
const REASON = '请上传本人正面免冠照片';

/** the picture the browser is decoding: resolved or failed by the path */
let decoding: { ok: (b: Buffer) => void; fail: () => void } | null = null;
let encoded: Buffer = JPEG;
/** supplies the browser's image decoding; again at each path's start, since a file run beside
 * this one (the end-state test loads many) may have supplied its own */
function supplyImageDecoding() {
  Object.assign(window, {
    createImageBitmap: () =>
      new Promise((resolve, reject) => {
        decoding = {
          ok: (b) => {
            encoded = b;
            resolve({ width: 2000, height: 1500, close() {} });
          },
          fail: () => reject(new DOMException('The source image could not be decoded.', 'InvalidStateError')),
        };
      }),
  });
  HTMLCanvasElement.prototype.getContext = (() => ({ drawImage() {} })) as never;
  HTMLCanvasElement.prototype.toDataURL = () => `data:image/jpeg;base64,${encoded.toString('base64')}`;
}
supplyImageDecoding();

interface Member {
  token: string;
  accountId: number;
  staff: string;
  /** how the last picture ended on the phone */
  picture?: 'small' | 'huge' | 'unreadable';
  /** a picture was chosen and the phone has not finished with it */
  choosing?: boolean;
  /** the status the server's last read was made to answer */
  loaded?: 'none' | 'reviewing' | 'rejected' | 'passed' | 'reopened';
}
type W = World<Member>;

const photos = (w: W) =>
  h.server.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, w.accountId)).orderBy(desc(memberPhotos.id));
const latest = async (w: W) => (await photos(w))[0];
const api = (w: W, method: string, path: string, body?: unknown, token = w.token) => h.server.call(method, path, { token, body });
const fromElsewhere = (w: W) => api(w, 'POST', '/api/customers/photo', { image: JPEG.toString('base64') });

/** the server's photo made to be in `status`, from whatever it is now (a desk, another phone) */
async function make(w: W, status: 'reviewing' | 'rejected' | 'passed' | 'reopened') {
  const now = (await latest(w))?.state ?? 'none';
  if (now !== 'reviewing' && now !== 'passed' && status !== 'reopened') await fromElsewhere(w);
  if (status === 'reopened' && now !== 'passed') {
    if (now !== 'reviewing') await fromElsewhere(w);
    await api(w, 'POST', `/api/staff/photos/${(await latest(w))!.id}/review`, { decision: 'pass' }, w.staff);
  }
  const id = (await latest(w))!.id;
  if (status === 'rejected') await api(w, 'POST', `/api/staff/photos/${id}/review`, { decision: 'reject', reason: REASON }, w.staff);
  if (status === 'passed') await api(w, 'POST', `/api/staff/photos/${id}/review`, { decision: 'pass' }, w.staff);
  if (status === 'reopened') await api(w, 'POST', `/api/staff/photos/${id}/allow-another`, undefined, w.staff);
}

const loaded = (status: 'none' | 'reviewing' | 'rejected' | 'passed' | 'reopened') => ({
  output: { code: 200, status: true, data: { status } },
  answer: {
    server: true,
    arrange: async (w: W) => {
      w.loaded = status;
      if (status !== 'none') await make(w, status);
    },
  },
});
const decoded = (how: 'small' | 'huge' | 'unreadable') => ({
  ...(how === 'unreadable'
    ? { error: new Error('unreadable') }
    : { output: { image: 'x', bytes: how === 'huge' ? HUGE.length : JPEG.length } }),
  perform: async (w: W) => {
    w.picture = how;
    w.choosing = false;
    const d = decoding;
    if (!d) throw new Error('the phone never started decoding the picture');
    decoding = null;
    await act(async () => (how === 'unreadable' ? d.fail() : d.ok(how === 'huge' ? HUGE : JPEG)));
  },
});

const badge = () => document.querySelector('[data-avatar-status]')?.textContent ?? null;
const feedback = () => document.querySelector('[data-avatar-feedback]')?.textContent || null;
const input = () => document.querySelector<HTMLInputElement>('[data-avatar-input]');
const image = () => document.querySelector('[data-avatar-image]');
const line = () => document.querySelector('[data-avatar-line]')?.textContent ?? '';
const uploads = (w: W, since = 0) => sentBy(w, 'upload', since);
const preview = () => document.querySelector('[data-avatar-preview]');
const RULE = '照片提交后需门店审核，审核期间不能更换；通过后作为头像并用于刷脸签到，之后如需更换须联系门店工作人员。';
const LABELS = { none: '未上传', reviewing: '审核中', rejected: '未通过', passed: '已通过', reopened: '已通过，可重新上传' } as const;

/** a state where the member may choose a picture: the picker open, nothing uploading */
function picker(label: string) {
  expect(input()?.disabled).toBe(false);
  expect(input()?.closest('label')?.textContent).toBe(label);
}

defineScreenPaths<Member>(h, {
  machine: photoAvatarMachine,
  screen: '/mine/setavatar',
  cases: {
    'xstate.done.actor.load': [
      loaded('none'),
      loaded('reviewing'),
      loaded('rejected'),
      loaded('passed'),
      loaded('reopened'),
      // the server could not answer (its database down): a path cannot make that cheaply
      {
        output: { code: 503, status: false },
        answer: { status: 503, body: { code: 503, status: false, data: null, message: 'unavailable' } },
      },
    ],
    'xstate.error.actor.load': [{ error: new Error('network') }],
    'file.chosen': [{ file: 'face.jpg' }],
    'xstate.done.actor.resize': [decoded('small'), decoded('huge')],
    'xstate.error.actor.resize': [decoded('unreadable')],
    'xstate.done.actor.upload': [
      { output: { code: 200, status: true, data: { status: 'reviewing' } }, answer: { server: true } },
      // a photo went from another phone a moment ago: under review, one at a time ("contact staff")
      { output: { code: 70045, status: false }, answer: { server: true, arrange: (w: W) => fromElsewhere(w).then(() => {}) } },
    ],
    'xstate.error.actor.upload': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as AvatarUploadContext;
    // the first read may find any state; a look again after "under review" finds it moved on by staff only
    if (e.type === 'xstate.done.actor.load' && c.view && (e.output as { data?: { status: string } }).data?.status === 'none') return false;
    // once a photo went from elsewhere, this phone's upload of it is refused, not accepted
    if (e.type === 'xstate.done.actor.upload' && (e.output as { code: number }).code === 200 && c.errorCode === 70045) return false;
    return true;
  },
  project: (c: AvatarUploadContext) => ({ status: c.view?.status ?? null, image: c.image ?? null, errorCode: c.errorCode ?? null }),
  requests: {
    load: { method: 'GET', path: /^\/api\/customers\/photo$/ },
    upload: { method: 'POST', path: /^\/api\/customers\/photo$/ },
  },

  async start(hh) {
    supplyImageDecoding();
    decoding = null;
    const m = await newMember(hh.server);
    hh.jar.setClientCookie('token', m.token);
    const staff = (await newStaff(hh.server)).token;
    const ui = await hh.open('/mine/setavatar');
    return { ui, token: m.token, accountId: m.id, staff };
  },

  events: {
    'file.chosen': async (w) => {
      w.choosing = true;
      const file = new File(['pixels'], 'face.jpg', { type: 'image/jpeg' });
      await userEvent.setup({ applyAccept: false, delay: null }).upload(input()!, file);
    },
    'confirm.accept': (w) => w.ui.user.click(screen.getByRole('button', { name: '提交审核' })),
    'confirm.dismiss': (w) => w.ui.user.click(screen.getByRole('button', { name: '重新选择' })),
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
    'review.refresh': (w) => w.ui.user.click(screen.getByRole('button', { name: '刷新审核结果' })),
  },

  states: {
    loading: (w) => {
      expect(line()).toBe('加载中…');
      expect(w.held.get('load')?.length, 'the state is being read').toBe(1);
      expect(input()).toBe(null);
    },
    loadFailed: () => {
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(input()).toBe(null);
    },
    choosing: async (w) => {
      expect(badge()).toBe('未上传');
      expect(image()).toBe(null);
      expect(feedback()).toBe(null);
      picker('选择照片');
      expect(await photos(w)).toEqual([]);
    },
    resizing: (w) => {
      expect(w.choosing, 'only a chosen picture is resized').toBe(true);
      expect(input()?.disabled).toBe(true);
      expect(input()?.closest('label')?.textContent).toBe('处理中…');
      expect(decoding, 'the phone is decoding the picture').not.toBe(null);
      expect(w.held.get('upload') ?? [], 'nothing sent while resizing').toEqual([]);
    },
    // the resized picture and what sending it means; nothing sent yet, no picker meanwhile
    previewing: async (w) => {
      expect(w.picture).toBe('small');
      expect(preview()?.querySelector('img')?.getAttribute('src')).toBe(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
      expect(preview()?.textContent).toContain(RULE);
      expect(screen.getByRole('button', { name: '提交审核' })).toBeTruthy();
      expect(input(), 'the picture is asked about first').toBe(null);
      expect(feedback()).toBe(null);
      expect(w.held.get('upload') ?? [], 'nothing sent before it is confirmed').toEqual([]);
      expect((await latest(w))?.state ?? 'none').toBe(w.loaded ?? 'none');
    },
    uploading: (w) => {
      expect(preview()).toBe(null);
      expect(input()?.disabled).toBe(true);
      expect(input()?.closest('label')?.textContent).toBe('上传中…');
      expect(w.held.get('upload')?.map((r) => r.body)).toEqual([{ image: JPEG.toString('base64') }]);
    },
    unreachable: (w) => {
      expect(uploads(w).at(-1)?.answer).toBe('network');
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    },
    refused: async (w) => {
      const last = uploads(w).at(-1);
      const said =
        last?.answer === 70045 && w.picture === 'small'
          ? '照片已提交，如需更换请联系门店工作人员'
          : w.picture === 'huge'
            ? '图片太大，不能超过 512 KB'
            : w.picture === 'unreadable'
              ? '仅支持 JPG、PNG 或 WebP 格式的图片'
              : 'unexpected';
      expect(feedback()).toBe(said);
      expect(input()?.disabled).toBe(false);
      // the phone's own refusals send nothing
      if (w.picture !== 'small') expect(w.held.get('upload') ?? []).toEqual([]);
    },
    reviewing: async (w) => {
      expect(badge()).toBe('审核中');
      expect(input(), 'one photo at a time: no picker while it is reviewed').toBe(null);
      expect(screen.getByRole('button', { name: '刷新审核结果' })).toBeTruthy();
      expect((await latest(w))?.state).toBe('reviewing');
      expect(image()).toBeTruthy();
    },
    rejected: async (w) => {
      expect(badge()).toBe('未通过');
      expect(document.querySelector('[data-avatar-reason]')?.textContent).toBe(REASON);
      picker('重新上传');
      expect((await latest(w))?.state).toBe('rejected');
    },
    passed: async (w) => {
      expect(badge()).toBe('已通过');
      expect(image()?.getAttribute('src')).toBe(`/api/customers/photo/image?v=${(await latest(w))!.id}`);
      expect(input(), 'another upload only through staff').toBe(null);
      expect(line()).toContain('联系门店工作人员');
    },
    replaceable: async (w) => {
      expect(badge()).toBe('已通过，可重新上传');
      expect(image()).toBeTruthy();
      picker('重新上传');
      expect((await latest(w))?.state).toBe('reopened');
    },
  },

  effects: {
    // choosing sends nothing yet: the phone starts resizing the picture first
    'file.chosen': (w, _e, before) => {
      expect(uploads(w, before)).toEqual([]);
      expect(sentBy(w, 'load', before)).toEqual([]);
      expect(decoding, 'the phone decodes the chosen picture').not.toBe(null);
      expect(input()?.closest('label')?.textContent).toBe('处理中…');
    },
    // a read that answered says nothing is wrong; one that failed says so, with a retry
    'xstate.done.actor.load': (w) => {
      const ok = sentBy(w, 'load').at(-1)?.answer === 200;
      expect(feedback()).toBe(ok ? null : '网络无法连接');
      expect(screen.queryByRole('button', { name: '重试' }) !== null).toBe(!ok);
      if (ok) expect(badge(), 'the state read is shown').toBe(LABELS[w.loaded ?? 'none']);
    },
    'xstate.error.actor.load': () => {
      expect(feedback()).toBe('网络无法连接');
      expect(decoding).toBe(null);
    },
    // the phone's verdict on the picture: too large or unreadable said at once, else it is sent
    'xstate.done.actor.resize': (w, _e, before) => {
      if (w.picture === 'huge') {
        expect(feedback()).toBe('图片太大，不能超过 512 KB');
        expect(uploads(w, before)).toEqual([]);
      } else {
        // shown first, not sent
        expect(preview()).not.toBe(null);
        expect(uploads(w, before)).toEqual([]);
      }
    },
    // confirmed once: the picture is sent, the preview gone
    'confirm.accept': (w, _e, before) => {
      expect(uploads(w, before).map((r) => r.body)).toEqual([{ image: JPEG.toString('base64') }]);
      expect(preview()).toBe(null);
      expect(input()?.closest('label')?.textContent).toBe('上传中…');
    },
    // choose again: nothing sent, the picker back as it was
    'confirm.dismiss': (w, _e, before) => {
      expect(w.sent.length).toBe(before);
      expect(preview()).toBe(null);
      expect(input()?.disabled).toBe(false);
    },
    'xstate.error.actor.resize': (w, _e, before) => {
      expect(feedback()).toBe('仅支持 JPG、PNG 或 WebP 格式的图片');
      expect(uploads(w, before)).toEqual([]);
    },
    // a kept upload is shown under review; a refused one says why
    'xstate.done.actor.upload': (w) => {
      const kept = uploads(w).at(-1)?.answer === 200;
      expect(feedback()).toBe(kept ? null : '照片已提交，如需更换请联系门店工作人员');
      if (kept) {
        expect(badge()).toBe('审核中');
        expect(screen.getByRole('button', { name: '刷新审核结果' })).toBeTruthy();
      }
    },
    'xstate.error.actor.upload': () => expect(feedback()).toBe('网络无法连接'),
    // a retry does again what failed: the upload of the same picture, or the read
    'network.retry': (w, _e, before) => {
      const failed = w.sent.slice(0, before).at(-1);
      if (failed?.invoke === 'upload') expect(uploads(w, before).map((r) => r.body)).toEqual([{ image: JPEG.toString('base64') }]);
      else expect(sentBy(w, 'load', before).length, 'a retry of the read reads again').toBe(1);
    },
    'review.refresh': (w, _e, before) => expect(sentBy(w, 'load', before).length).toBe(1),
  },
});
