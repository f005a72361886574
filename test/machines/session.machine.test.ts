import type { SessionContext } from '../../machines/session.machine';
import { sessionMachine } from '../../machines/session.machine';
import { defineModelTest } from './support/define-model-test';

const member = { customerId: 1, username: '13800000001', userLevel: '1' };

defineModelTest({
  machine: sessionMachine,
  inputs: {
    'a visitor (no token cookie)': {},
    'a member restored from the token cookie': { token: 'cookie-token', user: member },
  },
  cases: {
    'session.login': [{ token: 'new-token', user: { ...member, customerId: 2, username: '13800000002', userLevel: '2' } }],
    'xstate.done.actor.fetchBookedCount': [{ output: 3 }],
    'xstate.error.actor.fetchBookedCount': [{ error: new Error('network') }],
    'xstate.done.actor.logout': [{ output: undefined }],
    'xstate.error.actor.logout': [{ error: new Error('network') }],
  },
  project: (c: SessionContext) => ({ token: c.token ?? null, customerId: c.user?.customerId ?? null, bookedNum: c.bookedNum }),
});
