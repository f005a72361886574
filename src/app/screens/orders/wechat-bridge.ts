import type { WechatJsapiParams } from '../../../api/orders';
import type { WechatBridgeOutcome } from '../../../../machines/payment-order.machine';
import { appTimers } from '../../app-clock';

/** The messaging app's in-page bridge (WeixinJSBridge), as much of it as paying needs. */
export interface WeixinJSBridge {
  invoke(name: 'getBrandWCPayRequest', params: WechatJsapiParams, callback: (res: { err_msg?: string }) => void): void;
}

export type BridgeWindow = Window & { WeixinJSBridge?: WeixinJSBridge };

let hostOverride: BridgeWindow | undefined;
/**
 * The page the bridge is looked for on, when not this window: path tests play the messaging app on a
 * page of their own (the bridge answers ok, cancel or fail, or never comes).
 */
export function setBridgeHost(host: BridgeWindow | undefined): void {
  hostOverride = host;
}
export const bridgeHost = (): BridgeWindow | undefined => hostOverride;

/** How long to wait for the bridge's ready event before telling the member it is not there. */
export const BRIDGE_READY_TIMEOUT_MS = 8_000;

/**
 * The bridge once it is ready: at once when it is already injected, else on the document's
 * `WeixinJSBridgeReady` event (the messaging app injects it after the page starts); rejects when it
 * never comes (a plain browser outside the messaging app).
 */
export function waitForBridge(win: BridgeWindow = window, timeoutMs = BRIDGE_READY_TIMEOUT_MS): Promise<WeixinJSBridge> {
  if (win.WeixinJSBridge) return Promise.resolve(win.WeixinJSBridge);
  // the app's actor timers: a path test moves them instead of waiting the eight seconds
  const timers = appTimers();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      timers.clearTimeout(timer);
      if (win.WeixinJSBridge) resolve(win.WeixinJSBridge);
      else reject(new Error('WeixinJSBridgeReady fired without a bridge'));
    };
    const timer = timers.setTimeout(() => {
      win.document.removeEventListener('WeixinJSBridgeReady', onReady);
      reject(new Error('WeixinJSBridge not available'));
    }, timeoutMs);
    win.document.addEventListener('WeixinJSBridgeReady', onReady, { once: true });
  });
}

/** getBrandWCPayRequest's err_msg as an outcome; anything unknown is treated as "fail" (the server decides). */
export function bridgeOutcome(errMsg: string | undefined): WechatBridgeOutcome {
  if (errMsg === 'get_brand_wcpay_request:ok') return 'ok';
  if (errMsg === 'get_brand_wcpay_request:cancel') return 'cancel';
  return 'fail';
}

/** Pays with the server's JSAPI parameters (the pay-sign) through the bridge once it is ready. */
export async function payInWechat(jsapi: WechatJsapiParams, win: BridgeWindow = window): Promise<WechatBridgeOutcome> {
  const bridge = await waitForBridge(win);
  return new Promise((resolve) => bridge.invoke('getBrandWCPayRequest', jsapi, (res) => resolve(bridgeOutcome(res.err_msg))));
}

/**
 * Demo mode (decision 011): a stand-in bridge with the same surface. It announces
 * itself with the ready event, as the messaging app does, and getBrandWCPayRequest checks the
 * parameters a real client would need, then opens the WeChat Pay stand-in's cashier with them (it
 * verifies the pay-sign), which pays or fails the order, notifies our server and comes back to `returnTo`.
 */
export function installWechatBridgeStandIn(win: BridgeWindow, returnTo: string): void {
  if (win.WeixinJSBridge) return;
  const bridge: WeixinJSBridge = {
    invoke(name, params, callback) {
      const prepayId = /^prepay_id=(.+)$/.exec(params.package)?.[1];
      if (name !== 'getBrandWCPayRequest' || !prepayId || params.signType !== 'RSA' || !params.paySign || !params.appId) {
        callback({ err_msg: 'get_brand_wcpay_request:fail' });
        return;
      }
      // the cashier checks the pay-sign over these parameters, as the WeChat client does
      const q = new URLSearchParams({ prepay_id: prepayId, return_url: new URL(returnTo, win.location.origin).toString(), ...params });
      win.location.assign(`/api/dev/pay/wechat/cashier?${q.toString()}`);
    },
  };
  setTimeout(() => {
    win.WeixinJSBridge = bridge;
    win.document.dispatchEvent(new Event('WeixinJSBridgeReady'));
  }, 0);
}
