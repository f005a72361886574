import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { LoginRequest } from '../../src/api/auth';
import { loginMachine, type LoginContext } from '../../machines/login.machine';
import { defineModelTest } from './support/define-model-test';

const accepted = { code: 200, status: true, token: 'tok-1', data: { id: 7, level: '1', username: '13800000001' } };
const wrongPassword = { code: 10002, status: false, data: null };
const codeSent = { code: 200, status: true, data: null };
const tooSoon = { code: 10007, status: false, data: null };

const phoneKind = (p: string) => (p === '' ? 'empty' : /^\s*1[3-9]\d{9}\s*$/.test(p) ? 'valid' : 'invalid');

defineModelTest({
  machine: loginMachine,
  // a 2-second countdown keeps the walked graph small; the 60-second one is checked below
  inputs: { 'login with an open-id ticket': { openIdTicket: 'ticket-1', cooldownSeconds: 2 } },
  cases: {
    'login.phone.change': [{ value: ' 13800000001 ' }, { value: '1380000' }],
    'login.code.change': [{ value: ' 123456 ' }],
    'login.password.change': [{ value: ' yoga1234 ' }],
    'login.agreement.change': [{ agreed: true }],
    'xstate.done.actor.login': [{ output: accepted }, { output: wrongPassword }],
    'xstate.error.actor.login': [{ error: new Error('network') }],
    'xstate.done.actor.sendCode': [{ output: codeSent }, { output: tooSoon }],
    'xstate.error.actor.sendCode': [{ error: new Error('network') }],
  },
  // fields are filled once each (a valid phone only after an invalid one or none), tabs switch while no
  // code is on its way, codes are sent from the code tab: this keeps the walk small
  offer: (e, s) => {
    const c = s.context as LoginContext;
    if (e.type === 'login.tab.code' || e.type === 'login.tab.password') return s.matches({ active: { sender: { ready: 'idle' } } });
    if (e.type === 'login.code.send') return c.loginType === 'code';
    // while a code is on its way only its outcome comes next
    if (s.matches({ active: { sender: 'sending' } })) return e.type.startsWith('xstate.') && e.type.endsWith('.sendCode');
    if (e.type === 'login.phone.change') return phoneKind(e.value) === 'valid' ? phoneKind(c.phone) !== 'valid' : c.phone === '';
    if (e.type === 'login.code.change') return c.code === '';
    if (e.type === 'login.password.change') return c.password === '';
    if (e.type === 'login.agreement.change') return !c.agreed;
    return true;
  },
  project: (c: LoginContext) => ({
    phone: phoneKind(c.phone),
    code: c.code !== '',
    password: c.password !== '',
    agreed: c.agreed,
    loginType: c.loginType,
    remaining: c.remaining,
    errorCode: c.errorCode ?? null,
    sendErrorCode: c.sendErrorCode ?? null,
    token: c.token ?? null,
  }),
});

describe('login machine: what it sends and hands over', () => {
  function start(cooldownSeconds?: number) {
    const requests: LoginRequest[] = [];
    const sent: string[] = [];
    const handed: unknown[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      loginMachine.provide({
        actors: {
          login: fromPromise(async ({ input }) => {
            requests.push(input);
            return accepted;
          }),
          sendCode: fromPromise(async ({ input }) => {
            sent.push(input.phone);
            return codeSent;
          }),
        },
        actions: { handOver: ({ context }) => void handed.push({ token: context.token, user: context.user }) },
      }),
      { input: { openIdTicket: 'ticket-9', ...(cooldownSeconds ? { cooldownSeconds } : {}) }, clock },
    );
    actor.start();
    return { actor, clock, requests, sent, handed };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('trims phone and password, sends loginType and the open-id ticket as openid, and hands the session over', async () => {
    const { actor, requests, handed } = start();
    actor.send({ type: 'login.tab.password' });
    actor.send({ type: 'login.phone.change', value: ' 13800000001 ' });
    actor.send({ type: 'login.password.change', value: '  yoga1234 ' });
    actor.send({ type: 'login.agreement.change', agreed: true });
    actor.send({ type: 'login.submit' });
    await settle();
    expect(requests).toEqual([{ username: '13800000001', password: 'yoga1234', loginType: 'password', openid: 'ticket-9' }]);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ token: 'tok-1', user: { customerId: 7, username: '13800000001', userLevel: '1' } });
    expect(handed).toEqual([{ token: 'tok-1', user: { customerId: 7, username: '13800000001', userLevel: '1' } }]);
  });

  it('the code tab sends the trimmed code with loginType code', async () => {
    const { actor, requests } = start();
    actor.send({ type: 'login.phone.change', value: '13800000002' });
    actor.send({ type: 'login.code.change', value: ' 654321' });
    actor.send({ type: 'login.agreement.change', agreed: true });
    actor.send({ type: 'login.submit' });
    await settle();
    expect(requests[0]).toMatchObject({ username: '13800000002', password: '654321', loginType: 'code' });
  });

  it('the resend countdown lasts 60 seconds, one tick a second', async () => {
    const { actor, clock, sent } = start();
    actor.send({ type: 'login.phone.change', value: '13800000001 ' });
    actor.send({ type: 'login.code.send' });
    await settle();
    expect(sent).toEqual(['13800000001']);
    expect(actor.getSnapshot().matches({ active: { sender: 'coolingDown' } })).toBe(true);
    expect(actor.getSnapshot().context.remaining).toBe(60);
    actor.send({ type: 'login.code.send' }); // ignored while counting down
    clock.increment(1000);
    expect(actor.getSnapshot().context.remaining).toBe(59);
    for (let i = 0; i < 58; i++) clock.increment(1000);
    expect(actor.getSnapshot().context.remaining).toBe(1);
    expect(actor.getSnapshot().matches({ active: { sender: 'coolingDown' } })).toBe(true);
    clock.increment(1000);
    expect(actor.getSnapshot().matches({ active: { sender: { ready: 'idle' } } })).toBe(true);
    expect(sent).toHaveLength(1);
  });
});
