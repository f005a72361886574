import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { oauthStates } from '../../db/schema/index';
import type { OAuthGateway, OAuthGrant, OAuthProfile } from '../../gateways/index';
import { ApiError } from '../../http/api-error';
import type { Logger } from '../../logger';
import { hashSecret, newSecret } from '../auth-tokens';
import { accountById, type Account } from './accounts';
import { accountIdForOpenId, createOpenIdTicket } from './openid-tickets';
import { cleanAvatarUrl, cleanNickname, safeReturnPath } from './rules';
import { createSession } from './sessions';

const STATE_TTL_MS = 10 * 60_000;

interface FlowDeps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  oauth: OAuthGateway;
}

/** Where the provider sends the browser back. */
export function callbackUrl(config: Config): string {
  return `${config.publicUrl}${config.apiBase}/oauth/wechat/callback`;
}

/**
 * GET /oauth/wechat/authorize: remembers the same-origin path to return to under a random, single-use
 * state (stored hashed, 10 minutes) and answers the provider's authorize URL: the silent scope, or
 * (`userinfo`) the scope that asks for the user's profile, for a friend who pays.
 */
export async function startWechatLogin(deps: FlowDeps, from: string | undefined, scope: 'base' | 'userinfo' = 'base'): Promise<string> {
  const state = newSecret();
  await deps.db.insert(oauthStates).values({
    stateHash: hashSecret(state),
    returnTo: safeReturnPath(from, deps.config.publicUrl),
    expiresAt: new Date(deps.clock.now().getTime() + STATE_TTL_MS),
  });
  return deps.oauth.authorizeUrl(callbackUrl(deps.config), state, scope === 'userinfo' ? 'snsapi_userinfo' : 'snsapi_base');
}

export type CallbackResult =
  | { kind: 'session'; returnTo: string; token: string; account: Account }
  | { kind: 'ticket'; returnTo: string; ticket: string }
  | { kind: 'friend'; returnTo: string; ticket: string }
  | { kind: 'visitor'; returnTo: string };

/**
 * GET /oauth/wechat/callback: spends the state (an unknown, used or expired state is refused), swaps
 * the code for the open id, then: scope snsapi_userinfo -> a friend payer's ticket (see friendFlow);
 * bound to a live account -> a new session; not bound -> an open-id ticket for the next phone login;
 * provider refusal or banned account -> the member browses as visitor.
 */
export async function finishWechatLogin(deps: FlowDeps, code: string | undefined, state: string | undefined): Promise<CallbackResult> {
  const { db, clock } = deps;
  const [st] = state
    ? await db
        .update(oauthStates)
        .set({ usedAt: clock.now() })
        .where(and(eq(oauthStates.stateHash, hashSecret(state)), isNull(oauthStates.usedAt), gt(oauthStates.expiresAt, clock.now())))
        .returning({ returnTo: oauthStates.returnTo })
    : [];
  if (!st) throw new ApiError(Errors.invalidField, { field: 'state', values: { field: 'state' } });
  const returnTo = st.returnTo;
  if (!code) return { kind: 'visitor', returnTo };
  let grant: OAuthGrant;
  try {
    grant = await deps.oauth.exchange(code);
  } catch (err) {
    deps.log.warn('oauth exchange refused', { error: err instanceof Error ? err.message : String(err) });
    return { kind: 'visitor', returnTo };
  }
  if (grant.scope.split(',').includes('snsapi_userinfo')) return friendFlow(deps, grant, returnTo);
  const openId = grant.openId;
  const accountId = await accountIdForOpenId(db, openId);
  if (accountId === undefined) return { kind: 'ticket', returnTo, ticket: await createOpenIdTicket(db, openId, clock) };
  const account = await accountById(db, accountId);
  if (!account || account.banned) return { kind: 'visitor', returnTo };
  return { kind: 'session', returnTo, token: await createSession(db, account.id, clock), account };
}

/**
 * A friend who pays a member's order authorized with the user-info scope: their nickname
 * and avatar go into a userinfo ticket (10 minutes, read by friendPayer). It never logs anyone in and
 * never binds the open id, whatever account it is bound to. A profile the provider refuses: nothing.
 */
async function friendFlow(deps: FlowDeps, grant: OAuthGrant, returnTo: string): Promise<CallbackResult> {
  let profile: OAuthProfile;
  try {
    profile = await deps.oauth.userInfo(grant.accessToken, grant.openId);
  } catch (err) {
    deps.log.warn('oauth userinfo refused', { error: err instanceof Error ? err.message : String(err) });
    return { kind: 'visitor', returnTo };
  }
  const ticket = await createOpenIdTicket(deps.db, grant.openId, deps.clock, {
    scope: 'userinfo',
    nickname: cleanNickname(profile.nickname),
    avatar: cleanAvatarUrl(profile.avatar),
  });
  return { kind: 'friend', returnTo, ticket };
}
