import { describe, expect, it, vi } from 'vitest';
import type { StateValue } from 'xstate';
import { orderCheckoutMachine } from '../../../machines/order-checkout.machine';
import { paymentOrderMachine } from '../../../machines/payment-order.machine';
import { checkoutPath, payAgreementQuery, payOrderPath, payPageOf } from '../../../src/app/screens/orders/checkout-paths';
import {
  bridgeOutcome,
  installWechatBridgeStandIn,
  payInWechat,
  waitForBridge,
  type WeixinJSBridge,
} from '../../../src/app/screens/orders/wechat-bridge';

const jsapi = { appId: 'wx1', timeStamp: '1700000000', nonceStr: 'n', package: 'prepay_id=wx9', signType: 'RSA' as const, paySign: 'c2ln' };

/** A window as much as the bridge code reads: a document to dispatch on, a location to leave by. */
function fakeWindow() {
  const assign = vi.fn();
  const win = { document: new EventTarget(), location: { origin: 'http://app.test', assign } } as unknown as Window & {
    WeixinJSBridge?: WeixinJSBridge;
  };
  return { win, assign };
}

describe('the entry point /agreement/payagreement reads id, phaseId, teacherId', () => {
  it('takes the goods id and only the choices given', () => {
    expect(payAgreementQuery(new URLSearchParams('id=7'))).toEqual({ goodsId: 7 });
    expect(payAgreementQuery(new URLSearchParams('id=7&phaseId=2'))).toEqual({ goodsId: 7, phaseId: 2 });
    expect(payAgreementQuery(new URLSearchParams('id=7&teacherId=3&phaseId=x'))).toEqual({ goodsId: 7, teacherId: 3 });
  });
  it('a missing or malformed id is not found', () => {
    for (const q of ['', 'id=', 'id=abc', 'id=0', 'id=1.5']) expect(payAgreementQuery(new URLSearchParams(q)), q).toBeNull();
  });
});

/** The page a checkout state belongs on, by its `loginPage` tag; a pay-order state's, by the chart's page tags. */
const checkoutAt = (value: StateValue, here: string) =>
  checkoutPath(orderCheckoutMachine.resolveState({ value, context: {} as never }).hasTag('loginPage'), here);
const payPath = (value: StateValue, here: string) =>
  payOrderPath(payPageOf(paymentOrderMachine.resolveState({ value, context: {} as never })), 'O1', here);

describe('which page a checkout or payment state belongs on', () => {
  const here = '/agreement/payagreement?id=7';
  it('a visitor (or an expired login) logs in and comes back to this page', () => {
    expect(checkoutAt('loginRequired', here)).toBe('/login/%2Fagreement%2Fpayagreement%3Fid%3D7');
    expect(payPath('loginRequired', '/payf?orderNo=O1')).toBe('/login/%2Fpayf%3ForderNo%3DO1');
    for (const s of ['loadingGoods', 'choosingOption', { reviewing: 'editing' }, 'creatingOrder', 'paying'] as StateValue[])
      expect(checkoutAt(s, here), JSON.stringify(s)).toBeNull();
  });
  it('Alipay goes through /payt; waiting and success are /payf; failure is /pays (spec naming)', () => {
    expect(payPath({ paying: 'handingToAlipay' }, here)).toBe('/payt?orderNo=O1');
    expect(payPath({ paying: 'leftForAlipay' }, here)).toBe('/payt?orderNo=O1');
    expect(payPath({ awaitingResult: 'polling' }, here)).toBe('/payf?orderNo=O1');
    expect(payPath({ checking: 'idle' }, here)).toBe('/payf?orderNo=O1');
    expect(payPath('paid', here)).toBe('/payf?orderNo=O1');
    expect(payPath('failed', here)).toBe('/pays?orderNo=O1');
  });
  it('paying an existing order again, or a closed order, is its /orderdetail', () => {
    expect(payPath('choosingMethod', '/pays?orderNo=O1')).toBe('/orderdetail?orderNo=O1');
    expect(payPath('orderClosed', '/payf?orderNo=O1')).toBe('/orderdetail?orderNo=O1');
  });
  it('starting a payment and the WeChat sheet stay where they are', () => {
    for (const s of [
      'loadingOrder',
      { paying: 'requestingPayment' },
      { paying: 'inWechat' },
      { paying: 'wechatCancelled' },
      'paymentRefused',
    ] as StateValue[]) {
      expect(payPath(s, here), JSON.stringify(s)).toBeNull();
    }
  });
});

describe('the WeChat in-app bridge', () => {
  it('waits for the WeixinJSBridgeReady event when the bridge is not injected yet', async () => {
    const { win } = fakeWindow();
    const invoke = vi.fn((_n: string, _p: unknown, cb: (r: { err_msg: string }) => void) => cb({ err_msg: 'get_brand_wcpay_request:ok' }));
    const paid = payInWechat(jsapi, win);
    win.WeixinJSBridge = { invoke } as unknown as WeixinJSBridge;
    win.document.dispatchEvent(new Event('WeixinJSBridgeReady'));
    await expect(paid).resolves.toBe('ok');
    expect(invoke).toHaveBeenCalledWith('getBrandWCPayRequest', jsapi, expect.any(Function));
  });
  it('gives up when the bridge never comes (a plain browser)', async () => {
    const { win } = fakeWindow();
    await expect(waitForBridge(win, 5)).rejects.toThrow(/not available/);
  });
  it('reads ok, cancel and anything else as fail (the server decides then)', () => {
    expect(bridgeOutcome('get_brand_wcpay_request:ok')).toBe('ok');
    expect(bridgeOutcome('get_brand_wcpay_request:cancel')).toBe('cancel');
    expect(bridgeOutcome('get_brand_wcpay_request:fail')).toBe('fail');
    expect(bridgeOutcome(undefined)).toBe('fail');
  });
  it('the demo stand-in announces itself with the ready event and opens the stand-in cashier for the prepay id', async () => {
    const { win, assign } = fakeWindow();
    installWechatBridgeStandIn(win, '/payf?orderNo=O1');
    void payInWechat(jsapi, win);
    await new Promise((r) => setTimeout(r, 5));
    const url = new URL(assign.mock.calls[0]![0] as string, 'http://app.test');
    expect(url.pathname).toBe('/api/dev/pay/wechat/cashier');
    // the prepay id, where to come back, and the JSAPI parameters whose pay-sign the cashier verifies
    expect(Object.fromEntries(url.searchParams)).toEqual({ prepay_id: 'wx9', return_url: 'http://app.test/payf?orderNo=O1', ...jsapi });
  });
  it('the stand-in refuses parameters a real client would refuse (no pay-sign)', async () => {
    const { win, assign } = fakeWindow();
    installWechatBridgeStandIn(win, '/payf?orderNo=O1');
    await expect(payInWechat({ ...jsapi, paySign: '' }, win)).resolves.toBe('fail');
    expect(assign).not.toHaveBeenCalled();
  });
});
