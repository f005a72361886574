/** The parameters the page hands to WeixinJSBridge.invoke('getBrandWCPayRequest', …). */
export interface WechatJsapiParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: 'RSA';
  paySign: string;
}

/** What the page needs to start paying with an outside provider (the server's pay answer, the app's next step). */
export type PaymentStart =
  | { method: 'wechat'; prepayId: string; jsapi: WechatJsapiParams }
  | {
      method: 'alipay';
      /** GET this URL (a redirect) to open the mobile cashier */
      url: string;
      /** or POST these fields to `action` (the SDK's auto-submitting form) */
      form: { action: string; fields: Record<string, string> };
    };
