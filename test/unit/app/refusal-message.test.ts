import { setupI18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describe, expect, it } from 'vitest';
import { allErrors, Errors } from '../../../src/domain/errors';
import { PHOTO_MAX_LABEL } from '../../../src/domain/photo-review';
import { PHOTO_REFUSALS } from '../../../src/app/ui/photo-refusal';
import { REFUSAL_FALLBACK, refusalMessage, refusalText } from '../../../src/app/ui/refusal-message';

function zh() {
  const i18n = setupI18n();
  i18n.load('zh', {});
  i18n.activate('zh');
  return i18n;
}

/**
 * Codes the app may receive but says in the generic words on purpose (none yet): a code added here
 * needs a reason beside it.
 */
const DELIBERATELY_GENERIC: readonly number[] = [];

describe('refusalMessage, the one way a refusal code becomes the member’s words', () => {
  it('gives every catalogue code its own words, not the fallback', () => {
    for (const e of allErrors()) {
      if (DELIBERATELY_GENERIC.includes(e.code)) continue;
      expect(refusalMessage(e.code), `code ${e.code}`).toBe(e.message);
      expect(refusalMessage(e.code), `code ${e.code}`).not.toBe(REFUSAL_FALLBACK);
    }
  });

  it('says the generic words, naming nothing false, for an unknown or missing code', () => {
    expect(refusalMessage(99999)).toBe(REFUSAL_FALLBACK);
    expect(refusalMessage(undefined)).toBe(REFUSAL_FALLBACK);
    expect(refusalMessage(null)).toBe(REFUSAL_FALLBACK);
    expect(zh()._(REFUSAL_FALLBACK)).toBe('操作失败，请稍后再试');
    // the fallback is none of the catalogue's words (not "server error", not "no network")
    for (const e of allErrors()) expect(e.message.id, `code ${e.code}`).not.toBe(REFUSAL_FALLBACK.id);
  });

  it('takes an area’s own words for the codes it overrides, the catalogue’s for the rest', () => {
    const mine = msg`这个订单已拆分`;
    const overrides = { [Errors.invalidField.code]: mine };
    expect(refusalMessage(Errors.invalidField.code, overrides)).toBe(mine);
    expect(refusalMessage(Errors.notFound.code, overrides)).toBe(Errors.notFound.message);
    expect(refusalMessage(99999, overrides)).toBe(REFUSAL_FALLBACK);
  });
});

describe('refusalText', () => {
  const i18n = zh();

  it('says the server’s own words when it sent them', () => {
    expect(refusalText(i18n, Errors.transferWindow.code, { serverMessage: '团购结束后3天内不能转让，如有疑问请致电门店 021-1234' })).toBe(
      '团购结束后3天内不能转让，如有疑问请致电门店 021-1234',
    );
    expect(refusalText(i18n, 99999, { serverMessage: '新的拒绝' })).toBe('新的拒绝');
  });

  it('falls back to the catalogue, then the generic words, when the server sent none', () => {
    expect(refusalText(i18n, Errors.banned.code, { serverMessage: null })).toBe('该会员已被禁用');
    expect(refusalText(i18n, 99999)).toBe('操作失败，请稍后再试');
    expect(refusalText(i18n, undefined, { serverMessage: '' })).toBe('操作失败，请稍后再试');
  });

  it('puts an area’s override before the server’s words', () => {
    const overrides = { [Errors.notFound.code]: msg`没有找到这个订单` };
    expect(refusalText(i18n, Errors.notFound.code, { overrides, serverMessage: '没有找到' })).toBe('没有找到这个订单');
  });

  it('fills the placeholders with the values given', () => {
    expect(refusalText(i18n, Errors.invalidField.code, { values: { field: '金额' } })).toBe('金额 填写不正确');
    expect(refusalText(i18n, Errors.codeTooSoon.code, { values: { seconds: 30 } })).toBe('验证码已发送，请30秒后再试');
  });

  it('names the photo limit for a photo upload’s 70009', () => {
    expect(i18n._(refusalMessage(Errors.imageTooLarge.code, PHOTO_REFUSALS))).toBe(`图片太大，不能超过 ${PHOTO_MAX_LABEL}`);
    expect(i18n._(refusalMessage(Errors.imageTooLarge.code))).toBe('图片太大');
  });
});
