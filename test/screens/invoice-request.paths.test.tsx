// @vitest-environment jsdom
import { fireEvent } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoiceRequestMachine, type InvoiceForm, type InvoiceRequestContext } from '../../machines/invoice-request.machine';
import { invoices } from '../../src/server/db/schema/index';
import { newMember } from '../server/booking/support';
import { FIELDS as COMPANY, paidOrder, TAX_NO, TAX_NO_WRONG_CHECK } from '../server/invoices/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * Asking for an invoice on /invoice (decision 044; spec §3 invoice fields, §5 title,
 * taxpayer number and address required): the member ticks a paid order, types the title, a taxpayer
 * number with a wrong check character and then the right one, and the address; submit says what is
 * wrong by each field (nothing sent) or sends it; sent, the request is listed as waiting for staff and
 * the order leaves the list. Refusals: no order ticked, fields wrong (on the phone), the order asked
 * for meanwhile from another phone (the server's 70187). A lost request is retried with the same key.
 */
const h = await startScreenHarness({ seed: true });

interface Member {
  token: string;
  accountId: number;
  orderId: number;
  typed: InvoiceForm;
  ticked: boolean;
  /** the order was asked for from another phone (the refusal's arrangement) */
  elsewhere: boolean;
  last?: 'tick' | 'type' | 'submit' | 'retry';
}
type W = World<Member>;

const ok = { code: 200, status: true, data: {} };
const invoiced = { code: 70187, status: false, data: null, field: 'orderIds' };
const EMPTY: InvoiceForm = { title: '', taxNumber: '', address: '', phone: '', bankName: '', bankAccount: '' };

const feedback = () => document.querySelector('[data-invoice-feedback]')?.textContent || null;
const submit = () => document.querySelector<HTMLButtonElement>('[data-invoice-form] button');
const tick = (w: W) => document.querySelector<HTMLInputElement>(`[data-invoice-order="${w.orderId}"]`);
const fieldErrors = () =>
  Object.fromEntries(
    Array.from(document.querySelectorAll('[data-field-error]')).flatMap((e) =>
      e.textContent ? [[e.getAttribute('data-field-error'), e.textContent]] : [],
    ),
  );
const ticked = () => document.querySelectorAll('[data-invoice-order]:checked').length;
const stored = (w: W) => h.server.deps.db.select().from(invoices).where(eq(invoices.accountId, w.accountId));
const requests = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'request');
const complete = (w: W) => w.typed.title !== '' && w.typed.taxNumber === TAX_NO && w.typed.address !== '';

/** Asked for from another phone a moment ago. */
const elsewhere = async (w: W) => {
  w.elsewhere = true;
  const r = await h.server.call('POST', '/api/customers/invoices', { token: w.token, body: { ...COMPANY, orderIds: [w.orderId] } });
  expect(r.status).toBe(200);
};

/** The form as typed and the order as ticked, and what the server holds: nothing from this screen. */
async function editing(w: W, line: string | null, errors: Record<string, string> = {}) {
  expect(submit()?.textContent).toBe('提交申请');
  expect(submit()?.disabled).toBe(false);
  expect(tick(w)?.checked).toBe(w.ticked);
  for (const [field, value] of Object.entries(w.typed))
    expect(document.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.value).toBe(value);
  expect(feedback()).toBe(line);
  expect(fieldErrors()).toEqual(errors);
  expect((await stored(w)).length).toBe(w.elsewhere ? 1 : 0);
}

defineScreenPaths<Member>(h, {
  machine: invoiceRequestMachine,
  screen: '/invoice',
  inputs: {
    'a member with a paid order': {
      orders: [{ id: 1, orderNo: 'N1', goodsName: '20次卡', amountCents: 19_900, paidAt: null }],
      invoices: [],
    },
  },
  cases: {
    'order.toggle': [{ orderId: 1 }],
    'field.change': [
      { field: 'title', value: COMPANY.title },
      { field: 'taxNumber', value: TAX_NO_WRONG_CHECK },
      { field: 'taxNumber', value: TAX_NO },
      { field: 'address', value: COMPANY.address },
    ],
    'xstate.done.actor.request': [
      { output: { ...ok, data: { id: 1, orders: [{ id: 1 }] } }, answer: { server: true } },
      { output: invoiced, answer: { server: true, arrange: elsewhere } },
    ],
    'xstate.error.actor.request': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as InvoiceRequestContext;
    // tick the order once; then type the fields in the form's order, the taxpayer number wrong first
    if (e.type === 'order.toggle') return c.chosen.length === 0 && c.orders.length > 0;
    if (e.type === 'field.change') {
      if (c.chosen.length === 0) return false;
      if (e.field === 'title') return c.form.title === '';
      if (e.field === 'taxNumber')
        return c.form.title !== '' && (e.value === TAX_NO ? c.form.taxNumber !== TAX_NO : c.form.taxNumber === '');
      return c.form.taxNumber === TAX_NO && c.form.address === '';
    }
    // asked for from another phone, the order stays asked for
    if (e.type === 'xstate.done.actor.request') return !(c.errorCode === invoiced.code && (e.output as typeof ok).code === 200);
    return true;
  },
  project: (c: InvoiceRequestContext) => ({
    chosen: c.chosen.length,
    orders: c.orders.length,
    form: [c.form.title !== '', c.form.taxNumber, c.form.address !== ''],
    errorCode: c.errorCode ?? null,
    invoices: c.invoices.length,
  }),
  requests: { request: { method: 'POST', path: /^\/api\/customers\/invoices$/ } },

  async start(hh) {
    const m = await newMember(hh.server);
    const order = await paidOrder(hh.server, m);
    hh.jar.setClientCookie('token', m.token);
    return {
      token: m.token,
      accountId: m.id,
      orderId: order.id,
      typed: { ...EMPTY },
      ticked: false,
      elsewhere: false,
      ui: await hh.open('/invoice'),
    };
  },

  events: {
    'order.toggle': (w) => {
      w.last = 'tick';
      w.ticked = !w.ticked;
      return w.ui.user.click(tick(w)!);
    },
    'field.change': async (w, e) => {
      w.last = 'type';
      w.typed = { ...w.typed, [e.field as string]: e.value as string };
      fireEvent.change(document.querySelector(`input[name="${e.field as string}"]`)!, { target: { value: e.value } });
    },
    'invoice.submit': (w) => {
      w.last = 'submit';
      return w.ui.user.click(submit()!);
    },
    'network.retry': (w) => {
      w.last = 'retry';
      return w.ui.user.click(screen.getByRole('button', { name: '重试' }));
    },
  },

  states: {
    'editing.idle': (w) => editing(w, null),
    // said only for a submit with no order ticked
    'editing.noOrder': async (w) => {
      expect(w.last).toBe('submit');
      expect(ticked()).toBe(0);
      expect(submit()?.textContent).toBe('提交申请');
      expect(feedback()).toBe('请至少选择一个订单');
    },
    // each wrong field says what is wrong (spec §5), the others nothing
    'editing.invalid': async (w) => {
      expect(w.last).toBe('submit');
      const errors: Record<string, string> = {};
      if (w.typed.title === '') errors.title = '请填写发票抬头';
      if (w.typed.taxNumber === '') errors.taxNumber = '纳税人识别号应为18位统一社会信用代码';
      if (w.typed.taxNumber === TAX_NO_WRONG_CHECK) errors.taxNumber = '纳税人识别号校验位不正确，请核对';
      if (w.typed.address === '') errors.address = '请填写地址';
      expect(Object.keys(errors).length).toBeGreaterThan(0);
      await editing(w, '请按提示修改', errors);
    },
    // the server's refusal: the order was asked for from another phone; only that request is stored
    'editing.refused': async (w) => {
      expect(w.elsewhere).toBe(true);
      await editing(w, '所选订单已开过或正在申请发票');
    },
    // sent: listed as waiting for staff at the top, the order gone from the list, stored as typed
    'editing.sent': async (w) => {
      expect(complete(w)).toBe(true);
      expect(feedback()).toBe('已提交，门店开具后可在下方下载发票');
      expect(document.querySelector('[data-invoice-no-orders]')).toBeTruthy();
      const first = document.querySelector('[data-invoice-list] [data-invoice]');
      expect(first?.getAttribute('data-invoice-state')).toBe('requested');
      expect(first?.querySelector('[data-invoice-state-label]')?.textContent).toBe('待开具');
      expect(first?.querySelector('[data-invoice-pdf]')).toBe(null);
      const rows = await stored(w);
      expect(rows.map((r) => [r.state, r.title, r.taxNumber, r.address])).toEqual([
        ['requested', w.typed.title, w.typed.taxNumber, w.typed.address],
      ]);
      expect(first?.getAttribute('data-invoice')).toBe(String(rows[0]!.id));
    },
    // sent only after a submit of a complete form with the order ticked (or a retry)
    submitting: async (w) => {
      expect(['submit', 'retry']).toContain(w.last);
      expect(complete(w)).toBe(true);
      expect(tick(w)?.checked).toBe(true);
      expect(submit()?.disabled).toBe(true);
      expect(submit()?.textContent).toBe('提交中…');
      const [sent] = w.held.get('request') ?? [];
      expect(sent?.body).toMatchObject({
        orderIds: [w.orderId],
        title: w.typed.title,
        taxNumber: w.typed.taxNumber,
        address: w.typed.address,
      });
      expect((await stored(w)).length).toBe(w.elsewhere ? 1 : 0);
    },
    submitUnreachable: async (w) => {
      expect(requests(w).at(-1)?.answer).toBe('network');
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect((await stored(w)).length).toBe(w.elsewhere ? 1 : 0);
    },
  },

  seen: () => ticked(),
  effects: {
    // a request leaves the phone only for a complete form with an order ticked, under a key of its own
    'invoice.submit': (w, _e, before, tickedBefore) => {
      const sent = requests(w, before);
      expect(sent.length).toBe(complete(w) && (tickedBefore as number) > 0 ? 1 : 0);
      if (sent[0])
        expect(
          requests(w)
            .slice(0, -1)
            .map((r) => r.key),
        ).not.toContain(sent[0].key);
    },
    // a retry sends the same request under the same key
    'network.retry': (w, _e, before) => {
      const again = requests(w, before);
      expect(again.length).toBe(1);
      const previous = requests(w).slice(0, -1).at(-1);
      expect([again[0]!.key, again[0]!.body]).toEqual([previous?.key, previous?.body]);
    },
    // ticking or typing sends nothing
    'order.toggle': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
    'field.change': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
  },
});
