import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payStandInKeys } from '../../db/schema/index';
import type { FetchLike } from '../sms';
import { STANDIN_APP_ID } from '../oauth/wechat-oauth-standin';

/** An RSA key pair the stand-ins make for themselves; never read from or written to anywhere. */
export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function newRsaKeyPair(): KeyPair {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

let forger: KeyPair | undefined;

/**
 * A private key nobody registered, made once a process: what the stand-ins sign a notification
 * spoilt with `tamper: 'signature'` with (a new RSA key for each cost a tenth of a second).
 */
export function forgerKey(): KeyObject {
  forger ??= newRsaKeyPair();
  return forger.privateKey;
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
  /**
   * how the stand-ins reach our own app in-process (set by routes/dev-pay.ts): the notifications sent
   * during our adapters' own calls (a refund's) go there too, not over the network
   */
  appDeliver?: FetchLike;
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

let processKeys: Omit<PaymentStandIns, 'notifyFetch' | 'appDeliver'> | undefined;

/**
 * This process's stand-in keys, made on first use. Each server gets its own PaymentStandIns object
 * (so a test's notifyFetch stays its own) around the shared keys.
 */
export function processPaymentStandIns(): PaymentStandIns {
  processKeys ??= newPaymentStandIns();
  return { ...processKeys };
}

/** The stand-in keys as stored (pay_standin_keys.keys): private keys as PKCS#8 PEM, the rest as is. */
export interface StoredStandInKeys {
  wechat: Omit<WechatStandInKeys, 'merchant' | 'platform'> & { merchant: string; platform: string };
  alipay: Omit<AlipayStandInKeys, 'app' | 'alipay'> & { app: string; alipay: string };
}

const pem = (k: KeyPair) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const pair = (privatePem: string): KeyPair => {
  const privateKey = createPrivateKey(privatePem);
  return { privateKey, publicKey: createPublicKey(privateKey) };
};

export function toStored(s: Omit<PaymentStandIns, 'notifyFetch' | 'appDeliver'>): StoredStandInKeys {
  return {
    wechat: { ...s.wechat, merchant: pem(s.wechat.merchant), platform: pem(s.wechat.platform) },
    alipay: { ...s.alipay, app: pem(s.alipay.app), alipay: pem(s.alipay.alipay) },
  };
}

export function fromStored(k: StoredStandInKeys): PaymentStandIns {
  return {
    wechat: { ...k.wechat, merchant: pair(k.wechat.merchant), platform: pair(k.wechat.platform) },
    alipay: { ...k.alipay, app: pair(k.alipay.app), alipay: pair(k.alipay.alipay) },
  };
}

/**
 * The database's stand-in keys, made by the first process that needs them: every server process on
 * the database gets the same keys, and a restart keeps them (no four RSA keys at every start).
 */
export async function storedPaymentStandIns(db: Db, now: Date): Promise<PaymentStandIns> {
  const read = async () => (await db.select().from(payStandInKeys).where(eq(payStandInKeys.name, 'default')))[0];
  let row = await read();
  if (!row) {
    // two processes starting together: the first insert wins and both read it back
    await db
      .insert(payStandInKeys)
      .values({ name: 'default', keys: toStored(newPaymentStandIns()), createdAt: now })
      .onConflictDoNothing();
    row = await read();
  }
  return fromStored(row!.keys as StoredStandInKeys);
}
