// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cardTransferMachine, type CardTransferContext } from '../../machines/card-transfer.machine';
import { accounts, cardTransfers, transferImages } from '../../src/server/db/schema/index';
import { book, newCard, newClass, newMember } from '../server/booking/support';
import { ID_NUMBER } from '../server/cards/transfer-support';
import { openIdNumber, transferIdContext } from '../../src/server/services/person-privacy/id-numbers';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Applying to transfer a card on /mine/transferapply (spec §3 transfer, §5; decision 026): the
 * recipient's phone is looked up first (a masked name, or "no such member", or the network lost);
 * then the name, ID number (a wrong one is said and cannot be sent), ID photo and photo; the
 * application is sent under one key per intent and, accepted, the member sees its state pending;
 * refused by the server (a class booked with the card on another phone meanwhile: 30035) it is said
 * in the form; lost, a retry makes it once.
 *
 * jsdom decodes no images: the browser's part (createImageBitmap, a canvas's JPEG) is supplied here,
 * as in the photo-upload paths; the app's own code runs as is.
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

/** the recipient every path applies to (a member named 王小明), and a phone nobody has */
// outside the phone ranges the test helpers hand out (the end-state test runs many files on one server)
const RECIPIENT = '13500000001';
const NOBODY = '13500000999';
/** the member's own phone: each path's member is given it (the last path's member gives it up) */
const OWN = '13500000555';
await h.server.deps.db.insert(accounts).values({ phone: RECIPIENT, name: '王小明', role: 'member', createdAt: h.server.clock.now() });
const BAD_ID = '123456';

interface Member {
  token: string;
  accountId: number;
  cardId: number;
  typed: { phone: string; name: string; idNumber: string; idPhoto: boolean; photo: boolean };
  /** how many requests had been sent when the member last typed a new phone, closed a lost lookup, closed a lost application */
  phoneTypedAt: number;
  closedLookupAt: number;
  closedApplyAt: number;
  /** the lookups the member asked for (taps on "look up", retries of a lost one) */
  lookupAsks: number;
}
type W = World<Member>;

const found = { code: 200, status: true, data: { name: '**明' } };
const noSuchMember = { code: 30036, status: false, data: null };
const applied = { code: 200, status: true, data: { state: 'pending' } };
const bookingsAhead = { code: 30035, status: false, data: null };

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const input = (name: string) => document.querySelector<HTMLInputElement>(`[data-transfer-apply] input[name="${name}"]`);
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const formShown = () => document.querySelector('[data-transfer-form]') !== null;
const applications = (w: W) => h.server.deps.db.select().from(cardTransfers).where(eq(cardTransfers.cardId, w.cardId));
const uploaded = (w: W) => h.server.deps.db.select().from(transferImages).where(eq(transferImages.accountId, w.accountId));
const lookups = (w: W) => sentBy(w, 'lookupMember');
/** the last request lost on the network, before `until` */
const lastLost = (w: W, until = w.sent.length) =>
  w.sent
    .slice(0, until)
    .filter((r) => r.answer === 'network')
    .at(-1);
const lookupPath = (phone: string) => `/api/customers/members/phone?phone=${phone}`;
const applies = (w: W) => sentBy(w, 'submitTransfer');

async function type(name: string, value: string) {
  await act(async () => {
    fireEvent.change(input(name)!, { target: { value } });
  });
}
async function choose(name: 'idPhoto' | 'photo') {
  await userEvent
    .setup({ applyAccept: false, delay: null })
    .upload(input(name)!, new File(['pixels'], `${name}.jpg`, { type: 'image/jpeg' }));
}

/** Not applied: nothing stored for the card. */
async function nothingApplied(w: W) {
  expect(await applications(w)).toEqual([]);
}

defineScreenPaths<Member>(h, {
  machine: cardTransferMachine,
  screen: '/mine/transferapply',
  inputs: { 'a card in use': { cardId: 1, ownPhone: OWN } },
  cases: {
    'phone.change': [{ phone: RECIPIENT }, { phone: NOBODY }, { phone: OWN }],
    'xstate.done.actor.lookupMember': [
      { output: found, answer: { server: true } },
      { output: noSuchMember, answer: { server: true } },
    ],
    'xstate.error.actor.lookupMember': [{ error: new Error('network') }],
    'name.change': [{ name: '王小明' }],
    'idNumber.change': [{ idNumber: ID_NUMBER }, { idNumber: BAD_ID }],
    'idPhoto.ready': [{ image: 'id' }],
    'photo.ready': [{ image: 'face' }],
    'xstate.done.actor.submitTransfer': [
      { output: applied, answer: { server: true } },
      {
        output: bookingsAhead,
        answer: {
          server: true,
          // the member books a class with the card on another phone while the application is on its way
          arrange: async (w: W) => {
            const cls = await newClass(h.server);
            await book(h.server, w.token, cls.id, w.cardId);
          },
        },
      },
    ],
    'xstate.error.actor.submitTransfer': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardTransferContext;
    const p = e as unknown as Record<string, string>;
    // the phone typed once on a fresh page (either), or the right one after "no such member"
    if (e.type === 'phone.change') {
      if (s.matches('phone')) return c.phone === '';
      // one's own phone is refused at the field before any lookup: only on a fresh page
      if (p.phone === OWN) return false;
      if (s.matches('notFound')) return p.phone === RECIPIENT;
      // "close" after a lost lookup keeps the phone typed
      if (s.matches('lookupUnreachable')) return p.phone === c.phone;
      // another phone on a fresh form
      return s.matches('form') && p.phone === NOBODY && c.name === '' && c.idNumber === '' && !c.idPhoto && !c.photo;
    }
    // the server's answer to the phone sent
    if (e.type === 'xstate.done.actor.lookupMember')
      return (e as unknown as { output: typeof found }).output.code === 200 ? c.phone === RECIPIENT : c.phone === NOBODY;
    if (e.type === 'xstate.error.actor.lookupMember') return c.phone === RECIPIENT;
    // each field once; a wrong ID number corrected once
    if (e.type === 'name.change') return c.name === '';
    if (e.type === 'idNumber.change') return c.idNumber === '' || (c.idNumber === BAD_ID && p.idNumber === ID_NUMBER);
    if (e.type === 'idPhoto.ready') return !c.idPhoto;
    if (e.type === 'photo.ready') return !c.photo;
    // a refusal is read: the path ends there
    if (e.type === 'xstate.done.actor.submitTransfer') return c.errorCode === undefined;
    return c.errorCode === undefined;
  },
  project: (c: CardTransferContext) => ({
    phone: c.phone,
    recipient: c.recipient ?? null,
    name: c.name,
    id: c.idNumber,
    img: [Boolean(c.idPhoto), Boolean(c.photo)],
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    lookupMember: { method: 'GET', path: /^\/api\/customers\/members\/phone$/ },
    submitTransfer: { method: 'POST', path: /^\/api\/customers\/transfers\/apply$/ },
  },

  async start(hh) {
    supplyImageDecoding();
    const m = await newMember(hh.server);
    const db = hh.server.deps.db;
    await db
      .update(accounts)
      .set({ phone: `1350${String(m.id).padStart(7, '0')}` })
      .where(eq(accounts.phone, OWN));
    await db.update(accounts).set({ phone: OWN }).where(eq(accounts.id, m.id));
    const card = await newCard(hh.server, m.id);
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/transferapply?id=${card.id}`);
    return {
      ui,
      token: m.token,
      accountId: m.id,
      cardId: card.id,
      typed: { phone: '', name: '', idNumber: '', idPhoto: false, photo: false },
      phoneTypedAt: 0,
      closedLookupAt: -1,
      closedApplyAt: -1,
      lookupAsks: 0,
    };
  },

  events: {
    'phone.change': async (w, e) => {
      const phone = (e as unknown as { phone: string }).phone;
      // the same phone again is the "close" of a lost lookup (typing it would change nothing)
      if (phone === w.typed.phone) {
        w.closedLookupAt = w.sent.length;
        return w.ui.user.click(screen.getByRole('button', { name: '关闭' }));
      }
      w.typed.phone = phone;
      w.phoneTypedAt = w.sent.length;
      await type('phone', phone);
    },
    'phone.lookup': async (w) => {
      w.lookupAsks += 1;
      await w.ui.user.click(button('transfer-lookup')!);
    },
    'name.change': async (w, e) => {
      w.typed.name = (e as unknown as { name: string }).name;
      await type('name', w.typed.name);
    },
    'idNumber.change': async (w, e) => {
      w.typed.idNumber = (e as unknown as { idNumber: string }).idNumber;
      await type('idNumber', w.typed.idNumber);
    },
    'idPhoto.ready': async (w) => {
      w.typed.idPhoto = true;
      await choose('idPhoto');
    },
    'photo.ready': async (w) => {
      w.typed.photo = true;
      await choose('photo');
    },
    'transfer.submit': (w) => w.ui.user.click(button('transfer-submit')!),
    'network.retry': async (w) => {
      if (lastLost(w)?.invoke === 'lookupMember') w.lookupAsks += 1;
      await w.ui.user.click(screen.getByRole('button', { name: '重试' }));
    },
    'form.edit': async (w) => {
      w.closedApplyAt = w.sent.length;
      await w.ui.user.click(screen.getByRole('button', { name: '关闭' }));
    },
  },

  states: {
    // the phone first: the lookup offered, no form yet, nothing applied
    phone: async (w) => {
      expect(input('phone')?.value).toBe(w.typed.phone);
      expect(button('transfer-lookup')?.textContent).toBe('查询会员');
      // one's own phone: the server's refusal said at the phone, and no lookup (so no uploads) offered
      const own = w.typed.phone === OWN;
      expect(input('phone')!.closest('li')!.querySelector('[data-transfer-phone-wrong]')?.textContent ?? null).toBe(
        own ? '不能转让给自己' : null,
      );
      expect(button('transfer-lookup')?.disabled, 'one’s own phone cannot be looked up').toBe(own);
      expect(formShown()).toBe(false);
      expect(alertText()).toBe(null);
      // back to the phone only by typing one (or closing a lost lookup): no lookup answered since
      const last = w.sent.lastIndexOf(lookups(w).at(-1)!);
      expect(last < Math.max(w.phoneTypedAt, w.closedLookupAt), 'the phone was typed or the lost lookup closed since the last lookup').toBe(
        true,
      );
      await nothingApplied(w);
    },
    lookingUp: async (w) => {
      expect(lookups(w).length, 'a lookup only when the member asked for one').toBe(w.lookupAsks);
      expect(button('transfer-lookup')?.textContent).toBe('正在查询…');
      expect(button('transfer-lookup')?.disabled).toBe(true);
      expect(w.held.get('lookupMember')?.map((r) => r.path)).toEqual([lookupPath(w.typed.phone)]);
      expect(formShown()).toBe(false);
    },
    notFound: async (w) => {
      expect(lookups(w).at(-1)?.answer).toBe(30036);
      expect(lookups(w).at(-1)?.path, 'the phone on the page is the one not found').toBe(lookupPath(w.typed.phone));
      expect(alertText()).toBe('没有这个会员');
      expect(formShown()).toBe(false);
      expect(button('transfer-lookup')).toBe(null);
      await nothingApplied(w);
    },
    lookupUnreachable: async (w) => {
      expect(lookups(w).at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(formShown()).toBe(false);
      expect(w.closedLookupAt, 'said until the member closes it').toBeLessThanOrEqual(w.sent.lastIndexOf(lookups(w).at(-1)!));
    },
    // the member found: only the masked name is shown; the form; "apply" only when it is complete and well-formed
    form: async (w) => {
      expect(lookups(w).at(-1)?.answer).toBe(200);
      expect(w.typed.phone).toBe(RECIPIENT);
      expect(document.querySelector('[data-transfer-recipient]')?.textContent).toBe('受让会员：**明');
      expect(formShown()).toBe(true);
      expect(input('name')?.value).toBe(w.typed.name);
      expect(input('idNumber')?.value).toBe(w.typed.idNumber);
      const wrongId = w.typed.idNumber !== '' && w.typed.idNumber !== ID_NUMBER;
      expect(document.querySelector('[data-transfer-id-wrong]') !== null, 'a wrong ID number is said').toBe(wrongId);
      const complete = w.typed.name !== '' && w.typed.idNumber === ID_NUMBER && w.typed.idPhoto && w.typed.photo;
      expect(button('transfer-submit')?.disabled, 'apply only when complete').toBe(!complete);
      expect([...document.querySelectorAll('[data-image-chosen]')].map((el) => el.getAttribute('data-image-chosen'))).toEqual(
        [w.typed.idPhoto && 'idPhoto', w.typed.photo && 'photo'].filter(Boolean),
      );
      const refused = applies(w).at(-1)?.answer === bookingsAhead.code;
      expect(alertText()).toBe(refused ? '这张会员卡还有已预约或正在上的课程，请先取消预约' : null);
      await nothingApplied(w);
    },
    // the images went up (this member's), the application is on its way with what was typed
    submitting: async (w) => {
      expect(button('transfer-submit')?.textContent).toBe('正在提交…');
      expect(button('transfer-submit')?.disabled).toBe(true);
      const [held] = w.held.get('submitTransfer') ?? [];
      expect(held?.body).toMatchObject({ cardId: w.cardId, phone: RECIPIENT, name: '王小明', idNumber: ID_NUMBER, agreed: true });
      const mine = (await uploaded(w)).map((i) => i.id);
      expect(mine).toEqual(
        expect.arrayContaining([(held!.body as { idPhotoId: number }).idPhotoId, (held!.body as { photoId: number }).photoId]),
      );
      await nothingApplied(w);
    },
    unreachable: async (w) => {
      expect(applies(w).at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(w.closedApplyAt, 'said until the member closes it').toBeLessThanOrEqual(w.sent.lastIndexOf(applies(w).at(-1)!));
      await nothingApplied(w);
    },
    // applied: the member is on the application's page, pending review, stored once for the recipient
    submitted: async (w) => {
      await w.ui.waitForPath(`/mine/transferstate?id=${w.cardId}`);
      expect(await screen.findByText('待审核')).toBeTruthy();
      const rows = await applications(w);
      // the ID number is stored sealed (decision 055) and opens to what was typed
      const ids = await Promise.all(
        rows.map((r) => openIdNumber(h.server.deps.gateways.keys, r, transferIdContext(r.fromAccountId, r.cardId))),
      );
      expect(rows.map((r, i) => [r.state, r.recipientName, r.idNumber, ids[i]])).toEqual([['pending', '王小明', null, ID_NUMBER]]);
    },
  },

  effects: {
    'transfer.submit': (w, _e, before) => {
      const [tap] = sentBy(w, 'submitTransfer', before);
      expect(tap?.key, 'the application carries an Idempotency-Key').toBeDefined();
      expect(
        applies(w)
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    'network.retry': (w, _e, before) => {
      const again = [...sentBy(w, 'submitTransfer', before), ...sentBy(w, 'lookupMember', before)];
      expect(again, 'a retry sends the request again').toHaveLength(1);
      expect(again[0]!.invoke, 'the request that was lost').toBe(lastLost(w, before)?.invoke);
      if (again[0]!.invoke === 'submitTransfer') expect(again[0]!.key, 'the same intent: the same key').toBe(applies(w).at(-2)?.key);
    },
    'phone.lookup': (w, _e, before) => expect(sentBy(w, 'submitTransfer', before)).toEqual([]),
    // typing a phone (or closing a lost lookup) asks nothing: the member taps "look up"
    'phone.change': (w, _e, before) => expect(w.sent.length).toBe(before),
    'name.change': (w, _e, before) => expect(w.sent.length).toBe(before),
    'idNumber.change': (w, _e, before) => expect(w.sent.length).toBe(before),
    'idPhoto.ready': (w, _e, before) => expect(w.sent.length).toBe(before),
    'photo.ready': (w, _e, before) => expect(w.sent.length).toBe(before),
    'form.edit': (w, _e, before) => expect(w.sent.length).toBe(before),
  },
});
