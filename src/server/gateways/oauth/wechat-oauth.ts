import type { Config } from '../../config';
import type { Deps } from '../../env';
import type { OAuthGateway } from '../index';
import type { FetchLike } from '../sms';
import { STANDIN_APP_ID, STANDIN_APP_SECRET, standInFetch } from './wechat-oauth-standin';

/** The provider refused (WeChat's errcode/errmsg: a bad code, a bad token), or could not be reached or read. */
export class OAuthError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`oauth refused: ${errcode} ${errmsg}`);
  }
}

export interface WechatSettings {
  appId: string;
  appSecret: string;
  /** https://open.weixin.qq.com, or our stand-in */
  authorizeBase: string;
  /** https://api.weixin.qq.com, or our stand-in */
  apiBase: string;
}

type WechatAnswer = Record<string, unknown> & { errcode?: unknown; errmsg?: unknown };

/** One GET to WeChat's API: the JSON answer, or an OAuthError for {errcode, errmsg} or no answer at all. */
async function getJson(doFetch: FetchLike, url: string): Promise<WechatAnswer> {
  let body: WechatAnswer;
  try {
    const res = await doFetch(url, { method: 'GET', signal: AbortSignal.timeout(10_000) });
    body = (await res.json()) as WechatAnswer;
  } catch (err) {
    throw new OAuthError(-1, err instanceof Error ? err.message : String(err));
  }
  if (typeof body !== 'object' || body === null) throw new OAuthError(-1, 'unreadable answer');
  if (typeof body.errcode === 'number' && body.errcode !== 0) throw new OAuthError(body.errcode, String(body.errmsg ?? ''));
  return body;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The messaging app's web authorization: the browser is sent to the authorize URL (silent scope
 * snsapi_base, or snsapi_userinfo when the user's profile is wanted), comes back with ?code&state,
 * and the server swaps the code for the open id and an access token; with a token of scope
 * snsapi_userinfo it may read the user's nickname and avatar.
 */
export function wechatOAuth(settings: WechatSettings, deps: { fetch?: FetchLike } = {}): OAuthGateway {
  const doFetch: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  return {
    authorizeUrl(redirectUri, state, scope = 'snsapi_base') {
      const q = new URLSearchParams({ appid: settings.appId, redirect_uri: redirectUri, response_type: 'code', scope, state });
      return `${settings.authorizeBase}/connect/oauth2/authorize?${q.toString()}#wechat_redirect`;
    },
    async exchange(code) {
      const q = new URLSearchParams({ appid: settings.appId, secret: settings.appSecret, code, grant_type: 'authorization_code' });
      const body = await getJson(doFetch, `${settings.apiBase}/sns/oauth2/access_token?${q.toString()}`);
      if (typeof body.openid !== 'string' || !body.openid) throw new OAuthError(-1, 'no openid in answer');
      return { openId: body.openid, accessToken: text(body.access_token), scope: text(body.scope) };
    },
    async userInfo(accessToken, openId) {
      const q = new URLSearchParams({ access_token: accessToken, openid: openId, lang: 'zh_CN' });
      const body = await getJson(doFetch, `${settings.apiBase}/sns/userinfo?${q.toString()}`);
      if (body.openid !== openId) throw new OAuthError(-1, 'userinfo answered another openid');
      return { openId, nickname: text(body.nickname) || null, avatar: text(body.headimgurl) || null };
    },
  };
}

/**
 * Real WeChat with WECHAT_APP_ID/SECRET; otherwise (demo mode) the same adapter pointed at our
 * stand-in under /api/dev/wechat, whose exchange is dispatched in-process (no port needed).
 */
export function createOAuthGateway(config: Config, deps: Omit<Deps, 'gateways'>): OAuthGateway {
  const { authorizeBase, apiBase } = config.oauth;
  if (config.oauth.provider === 'wechat' && config.oauth.wechat) {
    return wechatOAuth({ ...config.oauth.wechat, authorizeBase, apiBase });
  }
  return wechatOAuth(
    { appId: STANDIN_APP_ID, appSecret: STANDIN_APP_SECRET, authorizeBase, apiBase },
    { fetch: standInFetch(apiBase, deps) },
  );
}
