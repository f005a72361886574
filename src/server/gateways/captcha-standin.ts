import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Db } from '../db/client';
import { devCaptchaTickets } from '../db/schema/index';
import type { Deps } from '../env';
import { createRouter } from '../http/router';
import type { FetchLike } from './sms';
import { tc3Sign } from './tencent-tc3';

/** The stand-in's own credentials and app: what the real adapter signs with in demo mode. */
export const STANDIN_CAPTCHA = {
  secretId: 'AKIDdemoCaptchaStandIn',
  secretKey: 'demo-captcha-standin-secret-key',
  appId: 190000001,
  appSecretKey: 'demo-captcha-app-secret',
  host: 'captcha.standin.local',
};

/** A ticket the widget issued is good this long, and for one verification (as Tencent's). */
const TICKET_TTL_MS = 5 * 60_000;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** The stand-in widget's "solved": a fresh ticket and random string (GET /api/dev/captcha/ticket in demo mode). */
export async function issueStandInTicket(db: Db, now: Date): Promise<{ ticket: string; randstr: string }> {
  const ticket = `t03${randomBytes(24).toString('base64url')}`;
  const randstr = `@${randomBytes(3).toString('hex')}`;
  await db.insert(devCaptchaTickets).values({ ticketHash: hashTicket(ticket), randstr, createdAt: now });
  return { ticket, randstr };
}

const answer = (c: Context, body: Record<string, unknown>) => c.json({ Response: { ...body, RequestId: randomBytes(8).toString('hex') } });
const refuse = (c: Context, code: string, message: string) => answer(c, { Error: { Code: code, Message: message } });

/**
 * DescribeCaptchaResult as Tencent answers it: the TC3 signature checked against the stand-in's
 * secret key (AuthFailure.SignatureFailure otherwise), the app id and app secret checked, then the
 * ticket: CaptchaCode 1 for a ticket the widget issued with this random string, not expired and not
 * verified before; 16 (ticket expired or used) or 9 (randstr mismatch) otherwise.
 */
const describeCaptchaResult = createRouter().post('/', async (c) => {
  const payload = await c.req.text();
  const auth = c.req.header('authorization') ?? '';
  const timestamp = Number(c.req.header('x-tc-timestamp'));
  const credential = /Credential=([^/]+)\//.exec(auth)?.[1];
  const given = /Signature=([0-9a-f]+)/.exec(auth)?.[1] ?? '';
  if (c.req.header('x-tc-action') !== 'DescribeCaptchaResult' || c.req.header('x-tc-version') !== '2019-07-22')
    return refuse(c, 'InvalidAction', 'unknown action or version');
  if (credential !== STANDIN_CAPTCHA.secretId || !Number.isFinite(timestamp))
    return refuse(c, 'AuthFailure.SecretIdNotFound', 'unknown SecretId');
  const { signature } = tc3Sign({
    ...STANDIN_CAPTCHA,
    service: 'captcha',
    action: 'DescribeCaptchaResult',
    version: '2019-07-22',
    payload,
    timestamp,
    host: c.req.header('host') ?? STANDIN_CAPTCHA.host,
  });
  if (given.length !== signature.length || !timingSafeEqual(Buffer.from(given), Buffer.from(signature)))
    return refuse(c, 'AuthFailure.SignatureFailure', 'signature mismatch');
  let body: {
    CaptchaType?: unknown;
    Ticket?: unknown;
    Randstr?: unknown;
    CaptchaAppId?: unknown;
    AppSecretKey?: unknown;
    UserIp?: unknown;
  };
  try {
    body = JSON.parse(payload) as typeof body;
  } catch {
    return refuse(c, 'InvalidParameter', 'body is not JSON');
  }
  if (body.CaptchaType !== 9 || typeof body.Ticket !== 'string' || typeof body.Randstr !== 'string' || typeof body.UserIp !== 'string')
    return refuse(c, 'MissingParameter', 'CaptchaType, Ticket, Randstr and UserIp are required');
  if (body.CaptchaAppId !== STANDIN_CAPTCHA.appId || body.AppSecretKey !== STANDIN_CAPTCHA.appSecretKey)
    return answer(c, { CaptchaCode: 15, CaptchaMsg: 'decrypt fail' });
  const deps = c.var.deps;
  const now = deps.clock.now();
  const [spent] = await deps.db
    .update(devCaptchaTickets)
    .set({ usedAt: now })
    .where(
      and(
        eq(devCaptchaTickets.ticketHash, hashTicket(body.Ticket)),
        isNull(devCaptchaTickets.usedAt),
        gt(devCaptchaTickets.createdAt, new Date(now.getTime() - TICKET_TTL_MS)),
      ),
    )
    .returning({ randstr: devCaptchaTickets.randstr });
  if (!spent) return answer(c, { CaptchaCode: 16, CaptchaMsg: 'ticket expired or used' });
  if (spent.randstr !== body.Randstr) return answer(c, { CaptchaCode: 9, CaptchaMsg: 'randstr mismatch' });
  return answer(c, { CaptchaCode: 1, CaptchaMsg: 'OK', EvilLevel: 0 });
});

/** The stand-in reached in-process (demo mode and tests): no port, the same HTTP request the real host gets. */
export function captchaStandInFetch(deps: Omit<Deps, 'gateways'>): FetchLike {
  const base = `https://${STANDIN_CAPTCHA.host}/`;
  const loop = createRouter();
  loop.use('*', async (c, next) => {
    c.set('deps', deps as Deps);
    await next();
  });
  loop.route('/', describeCaptchaResult);
  return async (url, init) => (url.startsWith(base) ? loop.request(url, init) : fetch(url, init));
}
