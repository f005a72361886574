import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock';
import { OAuthError, wechatOAuth } from '../../src/server/gateways/oauth/wechat-oauth';
import { tencentSms, type FetchLike } from '../../src/server/gateways/sms';
import { tc3Sign } from '../../src/server/gateways/tencent-tc3';
import { memoryLogger } from '../../src/server/logger';

function recordingFetch(answer: unknown, status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch };
}

describe('Tencent Cloud SMS adapter (SendSms 2021-01-11)', () => {
  const settings = {
    secretId: 'AKIDtest',
    secretKey: 'test-key',
    sdkAppId: '1400000000',
    signName: '瑜伽会',
    templateId: '123456',
    region: 'ap-guangzhou',
    host: 'sms.tencentcloudapi.com',
  };
  const clock = fixedClock('2026-11-20T02:00:00Z');
  const okAnswer = { Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }], RequestId: 'r-1' } };

  it('sends one signed POST with the phone in E.164 and the code and its validity as template parameters', async () => {
    const { calls, fetch } = recordingFetch(okAnswer);
    await tencentSms(settings, { clock, fetch }).sendCode('13800000001', '012345', memoryLogger());
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0]!;
    expect(url).toBe('https://sms.tencentcloudapi.com/');
    expect(init.method).toBe('POST');
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      PhoneNumberSet: ['+8613800000001'],
      SmsSdkAppId: '1400000000',
      SignName: '瑜伽会',
      TemplateId: '123456',
      TemplateParamSet: ['012345', '5'],
    });
    const headers = init.headers as Record<string, string>;
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json; charset=utf-8',
      Host: 'sms.tencentcloudapi.com',
      'X-TC-Action': 'SendSms',
      'X-TC-Version': '2021-01-11',
      'X-TC-Region': 'ap-guangzhou',
      'X-TC-Timestamp': String(timestamp),
    });
    // the Authorization signs exactly the bytes sent, in the sms service's scope for that UTC day
    const expected = tc3Sign({ ...settings, service: 'sms', action: 'SendSms', version: '2021-01-11', payload: body, timestamp });
    expect(headers.Authorization).toBe(expected.authorization);
    expect(headers.Authorization).toContain('Credential=AKIDtest/2026-11-20/sms/tc3_request');
  });

  it('throws on an API error or a per-number refusal, logging the provider code', async () => {
    const log = memoryLogger();
    const apiError = recordingFetch({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad' }, RequestId: 'r-2' } });
    await expect(tencentSms(settings, { clock, fetch: apiError.fetch }).sendCode('13800000001', '123456', log)).rejects.toThrow(
      'AuthFailure.SignatureFailure',
    );
    const refused = recordingFetch({
      Response: { SendStatusSet: [{ Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'x' }], RequestId: 'r-3' },
    });
    await expect(tencentSms(settings, { clock, fetch: refused.fetch }).sendCode('13800000001', '123456', log)).rejects.toThrow(
      'LimitExceeded',
    );
    expect(log.lines.filter((l) => l.msg === 'tencent sms refused')).toHaveLength(2);
  });
});

describe('WeChat web authorization adapter', () => {
  const settings = {
    appId: 'wx123',
    appSecret: 's3cret',
    authorizeBase: 'https://open.weixin.qq.com',
    apiBase: 'https://api.weixin.qq.com',
  };

  it('builds the documented authorize URL with the silent scope', () => {
    const url = wechatOAuth(settings).authorizeUrl('https://club.example/api/oauth/wechat/callback', 'st-1');
    expect(url).toBe(
      'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx123&redirect_uri=https%3A%2F%2Fclub.example%2Fapi%2Foauth%2Fwechat%2Fcallback&response_type=code&scope=snsapi_base&state=st-1#wechat_redirect',
    );
  });

  it('builds the authorize URL with the user-info scope when asked', () => {
    const url = wechatOAuth(settings).authorizeUrl('https://club.example/cb', 'st-2', 'snsapi_userinfo');
    expect(url).toBe(
      'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx123&redirect_uri=https%3A%2F%2Fclub.example%2Fcb&response_type=code&scope=snsapi_userinfo&state=st-2#wechat_redirect',
    );
  });

  it('exchanges the code with GET sns/oauth2/access_token and answers the open id, access token and scope', async () => {
    const { calls, fetch } = recordingFetch({
      access_token: 'at',
      expires_in: 7200,
      refresh_token: 'rt',
      openid: 'oABC',
      scope: 'snsapi_base',
    });
    expect(await wechatOAuth(settings, { fetch }).exchange('code-1')).toEqual({ openId: 'oABC', accessToken: 'at', scope: 'snsapi_base' });
    expect(calls[0]!.url).toBe(
      'https://api.weixin.qq.com/sns/oauth2/access_token?appid=wx123&secret=s3cret&code=code-1&grant_type=authorization_code',
    );
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
    const userinfo = recordingFetch({
      access_token: 'at2',
      expires_in: 7200,
      refresh_token: 'rt',
      openid: 'oDEF',
      scope: 'snsapi_userinfo',
      unionid: 'u1',
    });
    expect(await wechatOAuth(settings, { fetch: userinfo.fetch }).exchange('code-2')).toEqual({
      openId: 'oDEF',
      accessToken: 'at2',
      scope: 'snsapi_userinfo',
    });
    // no token or scope in the answer: empty, the silent flow does not need them
    const bare = recordingFetch({ openid: 'oGHI' });
    expect(await wechatOAuth(settings, { fetch: bare.fetch }).exchange('code-3')).toEqual({ openId: 'oGHI', accessToken: '', scope: '' });
  });

  it("reads the user's profile with GET sns/userinfo (lang zh_CN): open id, nickname, avatar", async () => {
    const answer = {
      openid: 'oABC',
      nickname: '小明',
      sex: 1,
      province: '上海',
      city: '上海',
      country: '中国',
      headimgurl: 'https://thirdwx.qlogo.cn/mmopen/g3Monxw/46',
      privilege: ['PRIVILEGE1'],
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
    };
    const { calls, fetch } = recordingFetch(answer);
    expect(await wechatOAuth(settings, { fetch }).userInfo('tok/en+1', 'oABC')).toEqual({
      openId: 'oABC',
      nickname: '小明',
      avatar: 'https://thirdwx.qlogo.cn/mmopen/g3Monxw/46',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://api.weixin.qq.com/sns/userinfo?access_token=tok%2Fen%2B1&openid=oABC&lang=zh_CN');
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
    // a user without a picture: headimgurl is empty
    const plain = recordingFetch({ ...answer, nickname: '', headimgurl: '' });
    expect(await wechatOAuth(settings, { fetch: plain.fetch }).userInfo('t', 'oABC')).toEqual({
      openId: 'oABC',
      nickname: null,
      avatar: null,
    });
  });

  it("refuses a profile: WeChat's {errcode, errmsg}, another open id's answer, an unreadable answer", async () => {
    for (const [errcode, errmsg] of [
      [40001, 'invalid credential, access_token is invalid or not latest'],
      [40003, 'invalid openid'],
      [48001, 'api unauthorized'],
    ] as const) {
      const refused = recordingFetch({ errcode, errmsg });
      const err = await wechatOAuth(settings, { fetch: refused.fetch })
        .userInfo('t', 'oABC')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OAuthError);
      expect(err).toMatchObject({ errcode, errmsg, message: `oauth refused: ${errcode} ${errmsg}` });
    }
    const other = recordingFetch({ openid: 'oXYZ', nickname: 'x', headimgurl: '' });
    await expect(wechatOAuth(settings, { fetch: other.fetch }).userInfo('t', 'oABC')).rejects.toThrow('another openid');
    const broken: FetchLike = async () => new Response('<html>', { status: 502 });
    await expect(wechatOAuth(settings, { fetch: broken }).userInfo('t', 'oABC')).rejects.toMatchObject({ errcode: -1 });
    const nothing = recordingFetch(null);
    await expect(wechatOAuth(settings, { fetch: nothing.fetch }).userInfo('t', 'oABC')).rejects.toThrow('unreadable answer');
    const zero = recordingFetch({ errcode: 0, errmsg: 'ok', openid: 'oABC', nickname: 'n', headimgurl: '' });
    expect(await wechatOAuth(settings, { fetch: zero.fetch }).userInfo('t', 'oABC')).toEqual({
      openId: 'oABC',
      nickname: 'n',
      avatar: null,
    });
  });

  it('turns {errcode, errmsg} and unreadable answers into an OAuthError', async () => {
    const refused = recordingFetch({ errcode: 40029, errmsg: 'invalid code' });
    const err = await wechatOAuth(settings, { fetch: refused.fetch })
      .exchange('bad')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err).toMatchObject({ errcode: 40029, errmsg: 'invalid code' });
    const broken: FetchLike = async () => new Response('<html>', { status: 502 });
    await expect(wechatOAuth(settings, { fetch: broken }).exchange('x')).rejects.toBeInstanceOf(OAuthError);
    const empty = recordingFetch({});
    await expect(wechatOAuth(settings, { fetch: empty.fetch }).exchange('x')).rejects.toThrow('no openid');
  });
});
