// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSelector } from '@xstate/react';
import { createActor, createMachine } from 'xstate';
import { ConfirmProvider, useConfirm, useConfirmWhile, type ConfirmResult, type OpenConfirm } from '../../../src/app/ui/confirm';
import { CONFIRM_INPUT_FOCUS_DELAY_MS } from '../../../src/domain/limits';
import { renderWithI18n } from './render-with-i18n';

function setup(): OpenConfirm {
  let confirm!: OpenConfirm;
  function Grab() {
    confirm = useConfirm();
    return null;
  }
  renderWithI18n(
    <ConfirmProvider>
      <Grab />
    </ConfirmProvider>,
  );
  return confirm;
}

/** Opens a dialog (its view loads lazily on first use) and keeps its outcome for the test to read. */
async function openWith(confirm: OpenConfirm, options: Parameters<OpenConfirm>[0]) {
  const outcome: { result?: ConfirmResult } = {};
  await act(async () => {
    void confirm(options).then((r) => (outcome.result = r));
    await import('../../../src/app/ui/confirm-view');
  });
  return outcome;
}

const flush = () => act(async () => {});

describe('confirm dialog (spec §2)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes on confirm and resolves confirmed', async () => {
    const confirm = setup();
    const outcome = await openWith(confirm, { title: '取消预约', message: '确定取消这节课吗？' });
    expect(screen.getByText('确定取消这节课吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await flush();
    expect(outcome.result).toEqual({ confirmed: true, value: '' });
    expect(screen.queryByText('确定取消这节课吗？')).toBeNull();
  });

  it('closes on cancel and resolves not confirmed', async () => {
    const confirm = setup();
    const onConfirm = vi.fn();
    const outcome = await openWith(confirm, { message: '退出登录？', onConfirm });
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await flush();
    expect(outcome.result).toEqual({ confirmed: false });
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByText('退出登录？')).toBeNull();
  });

  it('stays open on confirm when told to, until onConfirm closes it', async () => {
    const confirm = setup();
    const seen: string[] = [];
    let closeIt!: () => void;
    const outcome = await openWith(confirm, {
      message: '请输入手机号',
      stayOpen: true,
      input: { placeholder: '手机号', type: 'tel' },
      onConfirm: (value, close) => {
        seen.push(value);
        closeIt = close;
      },
    });
    act(() => vi.advanceTimersByTime(CONFIRM_INPUT_FOCUS_DELAY_MS));
    fireEvent.change(screen.getByPlaceholderText('手机号'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await flush();
    expect(seen).toEqual(['123']);
    expect(outcome.result).toBeUndefined();
    expect(screen.getByText('请输入手机号')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('手机号'), { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    act(() => closeIt());
    await flush();
    expect(seen).toEqual(['123', '13800138000']);
    expect(outcome.result).toEqual({ confirmed: true, value: '13800138000' });
    expect(screen.queryByText('请输入手机号')).toBeNull();
  });

  it('clears and focuses its input about 300 ms after opening', async () => {
    const confirm = setup();
    await openWith(confirm, { message: '转赠', input: { placeholder: '对方手机号' } });
    const input = screen.getByPlaceholderText('对方手机号') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '已经输入' } });
    act(() => vi.advanceTimersByTime(CONFIRM_INPUT_FOCUS_DELAY_MS - 1));
    expect(document.activeElement).not.toBe(input);
    expect(input.value).toBe('已经输入');
    act(() => vi.advanceTimersByTime(1));
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('');
    expect(CONFIRM_INPUT_FOCUS_DELAY_MS).toBe(300);
  });

  it('a new dialog cancels the one showing', async () => {
    const confirm = setup();
    const first = await openWith(confirm, { message: '第一个' });
    const second = await openWith(confirm, { message: '第二个' });
    await flush();
    expect(first.result).toEqual({ confirmed: false });
    expect(screen.queryByText('第一个')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await flush();
    expect(second.result).toEqual({ confirmed: true, value: '' });
  });

  it('can hide the cancel button and name its buttons', async () => {
    const confirm = setup();
    await openWith(confirm, { message: '已知晓', showCancel: false, confirmText: '我知道了' });
    expect(screen.queryByRole('button', { name: '取消' })).toBeNull();
    expect(screen.getByRole('button', { name: '我知道了' })).toBeTruthy();
  });

  describe('asked by a chart (useConfirmWhile)', () => {
    const asking = createMachine({
      id: 'ask',
      initial: 'idle',
      states: { idle: { on: { ask: 'asking' } }, asking: { on: { yes: 'done', no: 'idle', away: 'idle' } }, done: {} },
    });
    function Asker(props: { actor: ReturnType<typeof createActor<typeof asking>> }) {
      const inAsking = useSelector(props.actor, (s) => s.matches('asking'));
      useConfirmWhile(inAsking, { message: '确定吗？' }, (yes) => props.actor.send({ type: yes ? 'yes' : 'no' }));
      return null;
    }
    const show = async (actor: ReturnType<typeof createActor<typeof asking>>) => {
      renderWithI18n(
        <ConfirmProvider>
          <Asker actor={actor} />
        </ConfirmProvider>,
      );
      await act(async () => {
        await import('../../../src/app/ui/confirm-view');
      });
    };

    it('opens for a tap that reached the chart before its actor started, and sends the answer', async () => {
      const actor = createActor(asking);
      actor.send({ type: 'ask' }); // queued: the actor starts after the page's effects run
      await show(actor);
      expect(screen.queryByText('确定吗？')).toBeNull();
      await act(async () => void actor.start());
      await flush();
      expect(screen.getByText('确定吗？')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: '确定' }));
      await flush();
      expect(actor.getSnapshot().value).toBe('done');
      expect(screen.queryByText('确定吗？')).toBeNull();
    });

    it('closes when the chart leaves the asking state another way', async () => {
      const actor = createActor(asking).start();
      await show(actor);
      await act(async () => void actor.send({ type: 'ask' }));
      await flush();
      expect(screen.getByText('确定吗？')).toBeTruthy();
      await act(async () => void actor.send({ type: 'away' }));
      await flush();
      expect(screen.queryByText('确定吗？')).toBeNull();
      expect(actor.getSnapshot().value).toBe('idle');
    });
  });
});
