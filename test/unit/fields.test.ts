import { describe, expect, it } from 'vitest';
import { FIELD_LABELS } from '../../src/domain/fields';
import { translate } from '../../src/server/i18n';

const label = (field: string, locale: 'zh' | 'en') => translate(locale, FIELD_LABELS[field]!);

describe("a refused field is named in the member's language, not as a schema key", () => {
  it('the login and password fields (spec §3: username is the phone, password the password or the code)', () => {
    expect(label('username', 'zh')).toBe('手机号');
    expect(label('username', 'en')).toBe('Mobile number');
    expect(label('phone', 'zh')).toBe('手机号');
    expect(label('phone', 'en')).toBe('Mobile number');
    expect(label('password', 'zh')).toBe('密码');
    expect(label('password', 'en')).toBe('Password');
    expect(label('code', 'zh')).toBe('验证码');
    expect(label('code', 'en')).toBe('Verification code');
    expect(label('oldPassword', 'zh')).toBe('旧密码');
    expect(label('newPassword', 'zh')).toBe('新密码');
    expect(label('loginType', 'zh')).toBe('登录方式');
    expect(label('openid', 'zh')).toBe('微信授权');
    expect(label('token', 'zh')).toBe('登录凭证');
  });

  it('ids, paging, search and position fields', () => {
    expect(label('id', 'zh')).toBe('编号');
    expect(label('id', 'en')).toBe('ID');
    expect(label('pagenum', 'zh')).toBe('页码');
    expect(label('pagesize', 'zh')).toBe('每页条数');
    expect(label('keywords', 'zh')).toBe('关键词');
    expect(label('lat', 'zh')).toBe('纬度');
    expect(label('lng', 'zh')).toBe('经度');
    expect(label('lng', 'en')).toBe('Longitude');
    expect(label('body', 'zh')).toBe('请求内容');
    expect(label('body', 'en')).toBe('Request body');
  });

  it('every label has an English translation different from its Chinese source', () => {
    for (const field of Object.keys(FIELD_LABELS)) {
      const en = label(field, 'en');
      expect(en, field).not.toBe('');
      expect(en, field).not.toBe(label(field, 'zh'));
    }
  });

  it('a field without a label has none here (the refusal then names the key as it is)', () => {
    expect(FIELD_LABELS.weixinPicture).toBeUndefined();
  });
});
