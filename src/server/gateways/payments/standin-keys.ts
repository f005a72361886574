import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { FetchLike } from '../sms';
import { STANDIN_APP_ID } from '../wechat-standin';

/** An RSA key pair the stand-ins make for themselves; never read from or written to anywhere. */
export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function newRsaKeyPair(): KeyPair {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

/** What the WeChat Pay stand-in and the merchant registered with it share (as a real merchant account would). */
export interface WechatStandInKeys {
  mchId: string;
  appId: string;
  /** the merchant's API key (our side signs with the private half; the stand-in knows the public half) */
  merchant: KeyPair;
  merchantSerial: string;
  /** the platform key (the stand-in signs with it; our side verifies by serial) */
  platform: KeyPair;
  platformSerial: string;
  apiV3Key: string;
}

/** What the Alipay stand-in and the app registered with it share. */
export interface AlipayStandInKeys {
  appId: string;
  sellerId: string;
  /** the app key (we sign requests; the stand-in verifies) */
  app: KeyPair;
  /** Alipay's key (the stand-in signs answers and notifications; we verify) */
  alipay: KeyPair;
}

/** The payment stand-ins of one process: their keys, and how they reach our notify URL. */
export interface PaymentStandIns {
  wechat: WechatStandInKeys;
  alipay: AlipayStandInKeys;
  /** overrides how notifications are delivered (tests point it at their own handler) */
  notifyFetch?: FetchLike;
}

const serial = () => randomBytes(20).toString('hex').toUpperCase();

/** Fresh stand-in keys (tests that want their own); four RSA-2048 keys, about a quarter second. */
export function newPaymentStandIns(): PaymentStandIns {
  return {
    wechat: {
      mchId: '1900000109',
      // the messaging app's OAuth stand-in's app: the payers' open ids are issued for it
      appId: STANDIN_APP_ID,
      merchant: newRsaKeyPair(),
      merchantSerial: serial(),
      platform: newRsaKeyPair(),
      platformSerial: serial(),
      apiV3Key: randomBytes(16).toString('hex'),
    },
    alipay: { appId: '2021000000000001', sellerId: '2088000000000001', app: newRsaKeyPair(), alipay: newRsaKeyPair() },
  };
}

let processKeys: Omit<PaymentStandIns, 'notifyFetch'> | undefined;

/**
 * This process's stand-in keys, made on first use. Each server gets its own PaymentStandIns object
 * (so a test's notifyFetch stays its own) around the shared keys.
 */
export function processPaymentStandIns(): PaymentStandIns {
  processKeys ??= newPaymentStandIns();
  return { ...processKeys };
}
