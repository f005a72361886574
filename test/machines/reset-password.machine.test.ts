import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { resetPasswordMachine, type ResetPasswordContext } from '../../machines/reset-password.machine';
import { defineModelTest } from './support/define-model-test';

const ok = { code: 200, status: true, data: null };
const ticket = { code: 200, status: true, data: { ticket: 'reset-ticket', expiresIn: 600 } };
const wrongCode = { code: 10003, status: false, data: null };
const ticketExpired = { code: 10012, status: false, data: null };
const tooSoon = { code: 10007, status: false, data: null };

const phoneKind = (p: string) => (p === '' ? 'empty' : /^\s*1[3-9]\d{9}\s*$/.test(p) ? 'valid' : 'invalid');
const pwKind = (p: string) => (p === '' ? 'empty' : p.trim().length < 6 ? 'short' : p.trim());

defineModelTest({
  machine: resetPasswordMachine,
  inputs: {
    'step one (no ticket)': { cooldownSeconds: 2 },
    'step two (a ticket in the location state)': { ticket: 'from-step-one', cooldownSeconds: 2 },
  },
  cases: {
    'reset.phone.change': [{ value: ' 13800000001 ' }, { value: '1380000' }],
    'reset.code.change': [{ value: ' 123456 ' }],
    'reset.password.change': [{ value: ' newpass1 ' }, { value: '123' }],
    'reset.again.change': [{ value: 'newpass1' }, { value: 'other99' }],
    'xstate.done.actor.verifyCode': [{ output: ticket }, { output: wrongCode }],
    'xstate.error.actor.verifyCode': [{ error: new Error('network') }],
    'xstate.done.actor.resetPassword': [{ output: ok }, { output: ticketExpired }],
    'xstate.error.actor.resetPassword': [{ error: new Error('network') }],
    'xstate.done.actor.sendCode': [{ output: ok }, { output: tooSoon }],
    'xstate.error.actor.sendCode': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as ResetPasswordContext;
    if (e.type === 'reset.phone.change') return phoneKind(e.value) === 'valid' ? phoneKind(c.phone) !== 'valid' : c.phone === '';
    if (e.type === 'reset.code.change') return c.code === '';
    // a short password first, or the good one once; the confirmation once, matching or not
    if (e.type === 'reset.password.change') return pwKind(e.value) === 'short' ? c.password === '' : pwKind(c.password) !== 'newpass1';
    if (e.type === 'reset.again.change') return c.again === '';
    if (s.matches({ verify: { sender: 'sending' } })) return e.type.startsWith('xstate.') && e.type.endsWith('.sendCode');
    return true;
  },
  project: (c: ResetPasswordContext) => ({
    phone: phoneKind(c.phone),
    code: c.code !== '',
    password: pwKind(c.password),
    again: c.again,
    ticket: c.ticket ?? null,
    remaining: c.remaining,
    errorCode: c.errorCode ?? null,
    sendErrorCode: c.sendErrorCode ?? null,
  }),
});

describe('reset-password machine: what it sends', () => {
  it('verifies the trimmed phone and code, then sends the trimmed new password with the ticket', async () => {
    const calls: unknown[] = [];
    const actor = createActor(
      resetPasswordMachine.provide({
        actors: {
          verifyCode: fromPromise(async ({ input }) => (calls.push(['verify', input]), ticket)),
          resetPassword: fromPromise(async ({ input }) => (calls.push(['reset', input]), ok)),
        },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'reset.phone.change', value: ' 13800000001' });
    actor.send({ type: 'reset.code.change', value: '123456 ' });
    actor.send({ type: 'reset.verify' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().matches({ newPassword: { editing: 'clean' } })).toBe(true);
    actor.send({ type: 'reset.password.change', value: ' abcdef1 ' });
    actor.send({ type: 'reset.again.change', value: 'abcdef1' });
    actor.send({ type: 'reset.save' });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([
      ['verify', { phone: '13800000001', code: '123456' }],
      ['reset', { ticket: 'reset-ticket', password: 'abcdef1' }],
    ]);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
