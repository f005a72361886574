// @vitest-environment jsdom
import { fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MethodChoice } from '../../../src/app/screens/orders/method-choice';
import { renderWithI18n } from './render-with-i18n';

describe('the payment method list', () => {
  it("shows a method the member cannot use now disabled, with the server's reason; it cannot be chosen", () => {
    const onChoose = vi.fn();
    const reason = '请在微信中打开并登录后使用微信支付';
    const { container } = renderWithI18n(
      <MethodChoice
        methods={['balance', 'alipay']}
        unavailable={[{ method: 'wechat', code: 40012, message: reason }]}
        chosen="alipay"
        onChoose={onChoose}
      />,
    );
    const wechat = container.querySelector<HTMLLabelElement>('[data-method="wechat"]')!;
    expect(wechat.getAttribute('data-method-unavailable')).toBe('40012');
    expect(wechat.querySelector('[data-method-unavailable-reason]')!.textContent).toBe(reason);
    const radio = wechat.querySelector<HTMLInputElement>('input')!;
    expect(radio.disabled).toBe(true);
    fireEvent.click(wechat);
    expect(onChoose).not.toHaveBeenCalled();
    fireEvent.click(container.querySelector('[data-method="balance"] input')!);
    expect(onChoose).toHaveBeenCalledWith('balance');
    expect([...container.querySelectorAll('[data-method]')].map((e) => e.getAttribute('data-method'))).toEqual([
      'balance',
      'alipay',
      'wechat',
    ]);
  });
});
