import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { staffBindMachine } from '../../../../machines/staff-bind.machine';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { FormMessage } from '../auth/code-button';
import { NoOpenId, useHandOver } from './bind-parts';

/** /bindPage/userBind: a staff member binds with their staff account (spec §5, decision 028). */
export default function StaffBindScreen() {
  const { i18n, t } = useLingui();
  const handOver = useHandOver('/staff');
  const logic = useMemo(
    () =>
      staffBindMachine.provide({
        actors: { bindStaff: fromPromise(({ input }) => browserApiOrThrow().binding.bindStaff(input.username, input.password)) },
        actions: { handOver: (_, params) => handOver(params.envelope) },
      }),
    [handOver],
  );
  const bind = useActorRef(logic);
  const username = useSelector(bind, (s) => s.context.username);
  const password = useSelector(bind, (s) => s.context.password);
  const busy = useSelector(bind, (s) => s.matches('binding') || s.status === 'done');
  const noOpenId = useSelector(bind, (s) => s.matches({ editing: 'noOpenId' }));
  const feedback = useSelector(bind, (s) => {
    if (s.matches({ editing: 'usernameMissing' })) return STAFF_MESSAGES.usernameMissing;
    if (s.matches({ editing: 'passwordMissing' })) return STAFF_MESSAGES.passwordMissing;
    if (s.matches({ editing: 'refused' })) return refusalMessage(s.context.errorCode);
    if (s.matches({ editing: 'unreachable' })) return Errors.network.message;
    return undefined;
  });

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        bind.send({ type: 'bind.submit' });
      }}
    >
      <Block className="!mt-6 !mb-2 text-sm text-black/60">
        <Trans>请输入员工账号的用户名（手机号）和密码。绑定后，用本微信打开即以员工身份登录。</Trans>
      </Block>
      <List strong inset className="!my-3">
        <LabelledInput
          label={<Trans>用户名</Trans>}
          type="tel"
          name="username"
          autoComplete="username"
          placeholder={t`员工账号手机号`}
          value={username}
          onChange={(e: { target: { value: string } }) => bind.send({ type: 'bind.username.change', value: e.target.value })}
        />
        <LabelledInput
          label={<Trans>密码</Trans>}
          type="password"
          name="password"
          autoComplete="current-password"
          placeholder={t`请输入密码`}
          value={password}
          onChange={(e: { target: { value: string } }) => bind.send({ type: 'bind.password.change', value: e.target.value })}
        />
      </List>
      {noOpenId ? <NoOpenId from="/bindPage/userBind" /> : <FormMessage>{feedback ? i18n._(feedback) : undefined}</FormMessage>}
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={busy}>
          {busy ? <Trans>绑定中…</Trans> : <Trans>绑定</Trans>}
        </Button>
      </Block>
    </form>
  );
}

const STAFF_MESSAGES = {
  usernameMissing: msg`请输入用户名`,
  passwordMissing: msg`请输入密码`,
};
