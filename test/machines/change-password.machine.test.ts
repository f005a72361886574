import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { changePasswordMachine, type ChangePasswordContext } from '../../machines/change-password.machine';
import { defineModelTest } from './support/define-model-test';

const ok = { code: 200, status: true, data: null };
const oldWrong = { code: 10014, status: false, data: null };

defineModelTest({
  machine: changePasswordMachine,
  inputs: { 'a member on /mine/changepassword': undefined },
  cases: {
    'password.old.change': [{ value: ' oldpass1 ' }],
    // too short, the same as the old one, a good one
    'password.new.change': [{ value: '123' }, { value: 'oldpass1' }, { value: 'newpass1' }],
    'password.again.change': [{ value: 'oldpass1' }, { value: 'newpass1' }],
    'xstate.done.actor.changePassword': [{ output: ok }, { output: oldWrong }],
    'xstate.error.actor.changePassword': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as ChangePasswordContext;
    if (e.type === 'password.old.change') return c.oldPassword === '';
    if (e.type === 'password.new.change') return c.password === '' || (c.password === '123' && e.value !== '123');
    if (e.type === 'password.again.change') return c.again === '';
    return true;
  },
  project: (c: ChangePasswordContext) => ({ old: c.oldPassword.trim(), password: c.password, again: c.again, errorCode: c.errorCode ?? null }),
});

describe('change-password machine: what it sends', () => {
  it('sends the trimmed old and new passwords', async () => {
    const sent: unknown[] = [];
    const actor = createActor(
      changePasswordMachine.provide({ actors: { changePassword: fromPromise(async ({ input }) => (sent.push(input), ok)) } }),
    ).start();
    actor.send({ type: 'password.old.change', value: ' old123 ' });
    actor.send({ type: 'password.new.change', value: ' new456 ' });
    actor.send({ type: 'password.again.change', value: 'new456' });
    actor.send({ type: 'password.save' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([{ oldPassword: 'old123', newPassword: 'new456' }]);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
