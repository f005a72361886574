// @vitest-environment jsdom
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, useToast, type ShowToast } from '../../../src/app/ui/toast';
import { TOAST_DURATION_MS } from '../../../src/domain/limits';
import { renderWithI18n } from './render-with-i18n';

/** Renders the provider and hands back the imperative toast, as a screen would use it. */
function setup(): ShowToast {
  let toast!: ShowToast;
  function Grab() {
    toast = useToast();
    return null;
  }
  renderWithI18n(
    <ToastProvider>
      <Grab />
    </ToastProvider>,
  );
  return toast;
}

describe('toast (spec §2)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a message and hides itself after 2000 ms by default', () => {
    const toast = setup();
    act(() => void toast('预约成功'));
    expect(screen.getByText('预约成功')).toBeTruthy();
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByText('预约成功')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('预约成功')).toBeNull();
    expect(TOAST_DURATION_MS).toBe(2000);
  });

  it('is of type success unless told otherwise, and 7.6em wide', () => {
    const toast = setup();
    act(() => void toast({ message: '已保存' }));
    const box = screen.getByRole('status');
    expect(box.getAttribute('data-toast-type')).toBe('success');
    expect(box.className).toContain('w-[7.6em]');
  });

  it('takes another type and duration', () => {
    const toast = setup();
    act(() => void toast({ message: '网络无法连接', type: 'fail', duration: 500 }));
    expect(screen.getByRole('alert').getAttribute('data-toast-type')).toBe('fail');
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a new toast replaces the one showing and restarts the timer', () => {
    const toast = setup();
    act(() => void toast('第一条'));
    act(() => vi.advanceTimersByTime(1500));
    act(() => void toast('第二条'));
    expect(screen.queryByText('第一条')).toBeNull();
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.getByText('第二条')).toBeTruthy();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('第二条')).toBeNull();
  });

  it('a loading toast stays until hidden through the returned function', () => {
    const toast = setup();
    let hide!: () => void;
    act(() => void (hide = toast({ message: '加载中', type: 'loading' })));
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('加载中')).toBeTruthy();
    act(() => hide());
    expect(screen.queryByText('加载中')).toBeNull();
  });

  it('hiding an old toast does not hide a newer one', () => {
    const toast = setup();
    let hideFirst!: () => void;
    act(() => void (hideFirst = toast('第一条')));
    act(() => void toast('第二条'));
    act(() => hideFirst());
    expect(screen.getByText('第二条')).toBeTruthy();
  });

  it('useToast outside the provider says what is missing', () => {
    function Bad() {
      useToast();
      return null;
    }
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderWithI18n(<Bad />)).toThrow(/ToastProvider/);
  });
});
