// @vitest-environment jsdom
import { fireEvent } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { complaintMachine, type ComplaintContext } from '../../machines/complaint.machine';
import { complaintImages, complaints } from '../../src/server/db/schema/index';
import { newMember } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * A member's complaint (decision 033; spec §3 replied or not, satisfied or not; §5 content
 * not empty): written on /complain/createcomplain with a club and a photo (scaled down on the phone),
 * filed, awaited (a check for the reply: none yet, then staff replied on the server), read and rated
 * once; an existing complaint opened on /complain?id= starts where the server says it is. Refusals:
 * empty content on the phone; a photo the server will not take; an answer already given on another
 * phone. Lost answers are retried.
 *
 * jsdom decodes no images: createImageBitmap and a canvas's JPEG are supplied (as photo-upload's).
 */
const h = await startScreenHarness({ seed: true });

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
/** supplies the browser's image decoding; again at each path's start, since a file run beside
 * this one (the end-state test loads many) may have supplied its own */
function supplyImageDecoding() {
  Object.assign(window, { createImageBitmap: async () => ({ width: 2000, height: 1500, close() {} }) });
  HTMLCanvasElement.prototype.getContext = (() => ({ drawImage() {} })) as never;
  HTMLCanvasElement.prototype.toDataURL = () => `data:image/jpeg;base64,${JPEG.toString('base64')}`;
}
supplyImageDecoding();

const CONTENT = '更衣室太冷了';
const REPLY = '已经调高了温度';
const CLUB = 1;

interface Member {
  token: string;
  accountId: number;
  staffToken: string;
  /** the complaint, once it exists on the server */
  id?: number;
  /** what was typed last */
  typed: string;
  /** the member's last tap or typing: what a state may follow (filing follows a submit, never typing) */
  last?: 'type' | 'submit' | 'check' | 'rate' | 'retry';
  /** checks for a reply tapped */
  checks: number;
  /** the photos the member has chosen and not taken out again */
  photos: number;
  /** the answer tapped last (satisfied or not) */
  answer?: boolean;
}
type W = World<Member>;

const ok = { code: 200, status: true, data: {} };
const photoRefused = { code: 70143, status: false, data: null };
const alreadyRated = { code: 70141, status: false, data: null };
const asComplaint = (replied: boolean, satisfied: boolean | null) => ({ complaint: { id: 1, replied, satisfied } });

const filings = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'file');
const feedback = () => document.querySelector('[data-complaint-feedback]')?.textContent || null;
const submit = () => screen.queryByRole<HTMLButtonElement>('button', { name: /^(提交投诉|提交中…)$/ });
const rateButtons = () => Array.from(document.querySelectorAll<HTMLButtonElement>('[data-complaint-rate] button'));
const checkButton = () => screen.queryByRole('button', { name: /查看是否有回复|查询中…/ });
const badges = () => document.querySelector('[data-complaint-badges]')?.textContent ?? null;
const stored = (w: W) =>
  h.server.deps.db.select().from(complaints).where(eq(complaints.accountId, w.accountId)).orderBy(desc(complaints.id));
const row = async (w: W) => (await stored(w))[0]!;

async function file(token: string) {
  const r = await h.server.call('POST', '/api/customers/complaints', { token, body: { content: CONTENT, clubId: CLUB } });
  return r.body.data.id as number;
}
const staffReply = (w: W) =>
  h.server.call('POST', '/api/staff/complaints/reply', { token: w.staffToken, body: { id: w.id, reply: REPLY } });

/** Writing: the form, nothing filed; `line` said. */
async function writing(w: W, line: string | null) {
  expect(document.querySelector('textarea[name="content"]')).toBeTruthy();
  expect(submit()?.disabled).toBe(false);
  expect(submit()?.textContent).toBe('提交投诉');
  expect(feedback()).toBe(line);
  // the chosen photos are shown, each with its way out
  expect(screen.queryAllByRole('img', { name: /^第\d张照片$/ })).toHaveLength(w.photos);
  expect(screen.queryAllByRole('button', { name: /^删除第\d张照片$/ })).toHaveLength(w.photos);
  expect(await stored(w)).toEqual([]);
}

/** Filed, no reply: shown as not replied with a check; the server holds it unanswered. */
async function awaiting(w: W, line: string | null) {
  expect(badges()).toBe('未回复');
  expect(checkButton()?.textContent).toBe('查看是否有回复');
  expect(rateButtons()).toEqual([]);
  expect(feedback()).toBe(line);
  const c = await row(w);
  expect([c.state, c.content, c.reply]).toEqual(['filed', CONTENT, null]);
}

defineScreenPaths<Member>(h, {
  machine: complaintMachine,
  screen: '/complain',
  inputs: {
    'a new complaint': {},
    'a complaint awaiting a reply': asComplaint(false, null),
    'a replied complaint': asComplaint(true, null),
    'a rated complaint': asComplaint(true, true),
  },
  cases: {
    'content.change': [{ value: CONTENT }, { value: '   ' }],
    'club.change': [{ clubId: CLUB }],
    'photo.add': [{ image: JPEG.toString('base64') }],
    'photo.remove': [{ index: 0 }],
    'reply.rate': [{ satisfied: true }, { satisfied: false }],
    'xstate.done.actor.file': [
      { output: { ...ok, data: { id: 1, replied: false, satisfied: null } }, answer: { server: true } },
      // the server will not take a photo (already filed with another complaint: a path cannot make that cheaply)
      { output: photoRefused, answer: { status: 400, body: photoRefused } },
    ],
    'xstate.error.actor.file': [{ error: new Error('network') }],
    'xstate.done.actor.load': [
      { output: { ...ok, data: { id: 1, replied: false, satisfied: null } }, answer: { server: true } },
      {
        output: { ...ok, data: { id: 1, replied: true, satisfied: null } },
        answer: { server: true, arrange: (w: W) => staffReply(w).then(() => {}) },
      },
    ],
    'xstate.error.actor.load': [{ error: new Error('network') }],
    'xstate.done.actor.rate': [
      { output: ok, answer: { server: true } },
      // answered on another phone a moment ago
      {
        output: alreadyRated,
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.call('POST', '/api/customers/complaints/rate', { token: w.token, body: { id: w.id, satisfied: true } }).then(() => {}),
        },
      },
    ],
    'xstate.error.actor.rate': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as ComplaintContext;
    // one photo and one club are enough to show they are sent; typing once each way
    if (e.type === 'photo.add') return c.photos.length === 0;
    if (e.type === 'photo.remove') return c.photos.length > 0;
    if (e.type === 'club.change') return c.clubId === null;
    if (e.type === 'content.change') return e.value !== c.content;
    // rated on another phone, it stays rated
    if (e.type === 'xstate.done.actor.rate') return !(c.errorCode === alreadyRated.code && (e.output as typeof ok).code === 200);
    return true;
  },
  project: (c: ComplaintContext) => ({
    content: c.content,
    clubId: c.clubId,
    photos: c.photos.length,
    replied: c.complaint?.replied ?? null,
    satisfied: c.complaint?.satisfied ?? null,
    answer: c.satisfied,
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    file: { method: 'POST', path: /^\/api\/customers\/complaints$/ },
    load: { method: 'GET', path: /^\/api\/customers\/complaints\/detail$/ },
    rate: { method: 'POST', path: /^\/api\/customers\/complaints\/rate$/ },
  },

  async start(hh, input) {
    supplyImageDecoding();
    const m = await newMember(hh.server);
    const staff = await newStaff(hh.server);
    const w: Member = { token: m.token, accountId: m.id, staffToken: staff.token, typed: '', checks: 0, photos: 0 };
    hh.jar.setClientCookie('token', m.token);
    if (input === 'a new complaint') return { ...w, ui: await hh.open('/complain/createcomplain') };
    w.id = await file(m.token);
    if (input !== 'a complaint awaiting a reply') await staffReply(w as W);
    if (input === 'a rated complaint')
      await h.server.call('POST', '/api/customers/complaints/rate', { token: m.token, body: { id: w.id, satisfied: true } });
    return { ...w, ui: await hh.open(`/complain?id=${w.id}`) };
  },

  events: {
    'content.change': async (w, e) => {
      w.typed = e.value as string;
      w.last = 'type';
      fireEvent.change(document.querySelector('textarea[name="content"]')!, { target: { value: e.value } });
    },
    'club.change': async (w, e) =>
      w.ui.user.selectOptions(document.querySelector<HTMLSelectElement>('select[name="club"]')!, String(e.clubId)),
    'photo.add': async (w) => {
      const file = new File(['pixels'], 'cold.jpg', { type: 'image/jpeg' });
      await userEvent
        .setup({ applyAccept: false, delay: null })
        .upload(document.querySelector<HTMLInputElement>('[data-complaint-photo-input]')!, file);
      w.photos++;
    },
    'photo.remove': async (w, e) => {
      await w.ui.user.click(screen.getByRole('button', { name: `删除第${(e.index as number) + 1}张照片` }));
      w.photos--;
    },
    'complaint.submit': (w) => {
      w.last = 'submit';
      return w.ui.user.click(submit()!);
    },
    'reply.check': (w) => {
      w.last = 'check';
      w.checks++;
      return w.ui.user.click(checkButton()!);
    },
    'reply.rate': (w, e) => {
      w.last = 'rate';
      w.answer = e.satisfied as boolean;
      return w.ui.user.click(rateButtons().find((b) => b.textContent === (e.satisfied ? '满意' : '不满意'))!);
    },
    'network.retry': (w) => {
      w.last = 'retry';
      return w.ui.user.click(screen.getByRole('button', { name: '重试' }));
    },
  },

  states: {
    'composing.idle': (w) => writing(w, null),
    // said only when submit was tapped on nothing written
    'composing.empty': async (w) => {
      expect(w.last).toBe('submit');
      expect(w.typed.trim()).toBe('');
      await writing(w, '请填写投诉内容');
    },
    'composing.refused': (w) => writing(w, '照片无效或已用于其他投诉，请重新上传'),
    // sent only when the member submitted (or retried a lost answer), never while typing
    filing: async (w) => {
      expect(['submit', 'retry']).toContain(w.last);
      expect(submit()?.disabled).toBe(true);
      expect(submit()?.textContent).toBe('提交中…');
      const [sent] = w.held.get('file') ?? [];
      const body = sent?.body as { content: string; clubId: number | null; imageIds: number[] };
      expect(body.content).toBe(w.typed);
      expect(body.imageIds).toHaveLength(w.photos);
      // the photos went first, each stored as mine and not yet filed
      const mine = await h.server.deps.db.select().from(complaintImages).where(eq(complaintImages.accountId, w.accountId));
      expect(body.imageIds.every((id) => mine.some((i) => i.id === id && i.complaintId === null))).toBe(true);
      expect(await stored(w)).toEqual([]);
    },
    fileUnreachable: async (w) => {
      expect(filings(w).at(-1)?.answer).toBe('network');
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(await stored(w)).toEqual([]);
    },
    'awaitingReply.idle': async (w) => {
      w.id ??= (await row(w)).id;
      await awaiting(w, null);
    },
    // "no reply yet" and "unreachable" answer a check the member asked for, not the opening of the page
    'awaitingReply.stillWaiting': async (w) => {
      expect(w.checks).toBeGreaterThan(0);
      expect(w.sent.filter((r) => r.invoke === 'load').at(-1)?.answer).not.toBe('network');
      await awaiting(w, '还没有回复，有回复时会通知您');
    },
    'awaitingReply.unreachable': async (w) => {
      expect(w.checks).toBeGreaterThan(0);
      expect(w.sent.filter((r) => r.invoke === 'load').at(-1)?.answer).toBe('network');
      await awaiting(w, '网络无法连接');
    },
    // a check is asked only by a tap on "check for a reply"
    checking: async (w) => {
      expect(w.last).toBe('check');
      expect(checkButton()?.textContent).toBe('查询中…');
      expect(checkButton()?.hasAttribute('disabled')).toBe(true);
      expect(w.held.get('load')?.length).toBe(1);
      expect((await row(w)).state).toBe('filed');
    },
    'replied.idle': async (w) => {
      expect(document.querySelector('[data-complaint-reply]')?.textContent).toContain(REPLY);
      expect(badges()).toBe('已回复');
      expect(rateButtons().map((b) => [b.textContent, b.disabled])).toEqual([
        ['满意', false],
        ['不满意', false],
      ]);
      expect(feedback()).toBe(null);
      expect((await row(w)).state).toBe('replied');
    },
    'replied.refused': async (w) => {
      expect(feedback()).toBe('该投诉当前状态不能这样处理');
      expect(rateButtons().length).toBe(2);
      expect((await row(w)).state).toBe('satisfied');
    },
    // the answer the member tapped is on its way (or again, by a retry)
    rating: async (w) => {
      expect(['rate', 'retry']).toContain(w.last);
      expect(rateButtons().every((b) => b.disabled)).toBe(true);
      const [sent] = w.held.get('rate') ?? [];
      expect((sent?.body as { id: number }).id).toBe(w.id);
      expect((sent?.body as { satisfied: boolean }).satisfied).toBe(w.answer);
      expect(['replied', 'satisfied']).toContain((await row(w)).state);
    },
    rateUnreachable: async (w) => {
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(['replied', 'satisfied']).toContain((await row(w)).state);
    },
    rated: async (w) => {
      const c = await row(w);
      expect(['satisfied', 'unsatisfied']).toContain(c.state);
      expect(badges()).toBe(`已回复${c.state === 'satisfied' ? '满意' : '不满意'}`);
      expect(document.querySelector('[data-complaint-reply]')?.textContent).toContain(REPLY);
      expect(rateButtons()).toEqual([]);
      expect(checkButton()).toBe(null);
      expect(feedback()).toBe(null);
    },
  },

  effects: {
    // the answer sent is the one tapped, under a new key
    'reply.rate': (w, e, before) => {
      const [sent] = w.sent.slice(before).filter((r) => r.invoke === 'rate');
      expect((sent?.body as { satisfied: boolean }).satisfied).toBe(e.satisfied);
      expect(
        w.sent
          .filter((r) => r.invoke === 'rate')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(sent!.key);
    },
    // an empty complaint never leaves the phone; a filed one carries a key of its own
    'complaint.submit': (w, _e, before) => {
      const sent = filings(w, before);
      expect(sent.length).toBe(w.typed.trim() === '' ? 0 : 1);
      if (sent[0])
        expect(
          filings(w)
            .slice(0, -1)
            .map((r) => r.key),
        ).not.toContain(sent[0].key);
    },
    // a retry sends the same complaint, the same key, the photos not uploaded again
    'network.retry': (w, _e, before) => {
      const again = w.sent.slice(before).filter((r) => r.invoke === 'file' || r.invoke === 'rate');
      expect(again.length).toBe(1);
      const previous = w.sent
        .slice(0, before)
        .filter((r) => r.invoke === again[0]!.invoke)
        .at(-1);
      expect([again[0]!.key, again[0]!.body]).toEqual([previous?.key, previous?.body]);
      expect(w.sent.slice(before).filter((r) => r.path === '/api/customers/complaints/image')).toEqual([]);
    },
  },
});
