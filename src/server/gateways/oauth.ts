import type { Config } from '../config';
import type { Deps } from '../env';
import type { OAuthGateway } from './index';
import type { FetchLike } from './sms';
import { STANDIN_APP_ID, STANDIN_APP_SECRET, standInFetch } from './wechat-standin';

/** The provider refused the code (WeChat's errcode/errmsg), or could not be reached. */
export class OAuthError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`oauth exchange failed: ${errcode} ${errmsg}`);
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

/**
 * The messaging app's web authorization (silent scope snsapi_base): the browser is sent to the
 * authorize URL, comes back with ?code&state, and the server swaps the code for the open id.
 */
export function wechatOAuth(settings: WechatSettings, deps: { fetch?: FetchLike } = {}): OAuthGateway {
  const doFetch: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  return {
    authorizeUrl(redirectUri, state) {
      const q = new URLSearchParams({ appid: settings.appId, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_base', state });
      return `${settings.authorizeBase}/connect/oauth2/authorize?${q.toString()}#wechat_redirect`;
    },
    async exchange(code) {
      const q = new URLSearchParams({ appid: settings.appId, secret: settings.appSecret, code, grant_type: 'authorization_code' });
      let body: { openid?: unknown; errcode?: unknown; errmsg?: unknown };
      try {
        const res = await doFetch(`${settings.apiBase}/sns/oauth2/access_token?${q.toString()}`, {
          method: 'GET',
          signal: AbortSignal.timeout(10_000),
        });
        body = (await res.json()) as typeof body;
      } catch (err) {
        throw new OAuthError(-1, err instanceof Error ? err.message : String(err));
      }
      if (typeof body.errcode === 'number' && body.errcode !== 0) throw new OAuthError(body.errcode, String(body.errmsg ?? ''));
      if (typeof body.openid !== 'string' || !body.openid) throw new OAuthError(-1, 'no openid in answer');
      return { openId: body.openid };
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
