import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useEffect, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { authPasswordChangeMachine } from '../../../../machines/auth-password-change.machine';
import { browserApiOrThrow } from '../../api-context';
import { returnPath } from '../../session/request-session';
import { useToast } from '../../ui/toast';
import { feedbackOf } from '../auth/auth-messages';
import { FormMessage } from '../auth/code-button';

/**
 * /mine/changepassword (requiresLogin): old password, new one twice (spec §5). After a login with an
 * initial password (`?first=1&then=...`, decision 054) it says why it opened and cannot be left: the
 * server answers nothing else for that session until the new password is set; then on to `then`.
 */
export default function ChangePasswordScreen() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const first = query.get('first') === '1';
  const then = first ? returnPath(query.get('then') ?? undefined) : '/mine';
  const toast = useToast();
  const logic = useMemo(
    () =>
      authPasswordChangeMachine.provide({
        actors: {
          changePassword: fromPromise(({ input }) => browserApiOrThrow().auth.changePassword(input.oldPassword, input.newPassword)),
        },
      }),
    [],
  );
  const change = useActorRef(logic);
  const oldPassword = useSelector(change, (s) => s.context.oldPassword);
  const password = useSelector(change, (s) => s.context.password);
  const again = useSelector(change, (s) => s.context.again);
  const saving = useSelector(change, (s) => s.matches('saving'));
  const done = useSelector(change, (s) => s.status === 'done');
  const feedback = useSelector(change, (s) => feedbackOf(s, s.context.errorCode));

  useEffect(() => {
    if (!done) return;
    toast(t`密码已修改`);
    void navigate(then, { replace: true });
  }, [done, toast, navigate, t, then]);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        change.send({ type: 'password.save' });
      }}
    >
      {first ? (
        <Block strong inset className="!mt-6 !mb-0 text-sm" role="note" data-initial-password-notice>
          <Trans>
            您正在使用门店前台给您的初始密码，请先设置一个只有您知道的新密码，设置后才能继续使用。旧密码就是刚才登录用的初始密码。
          </Trans>
        </Block>
      ) : null}
      <List strong inset className="!mt-6 !mb-4">
        <LabelledInput
          label={<Trans>旧密码</Trans>}
          type="password"
          autoComplete="current-password"
          name="oldPassword"
          placeholder={t`请输入旧密码`}
          value={oldPassword}
          onChange={(e: { target: { value: string } }) => change.send({ type: 'password.old.change', value: e.target.value })}
        />
        <LabelledInput
          label={<Trans>新密码</Trans>}
          type="password"
          autoComplete="new-password"
          name="password"
          placeholder={t`6到15位`}
          value={password}
          onChange={(e: { target: { value: string } }) => change.send({ type: 'password.new.change', value: e.target.value })}
        />
        <LabelledInput
          label={<Trans>确认密码</Trans>}
          type="password"
          autoComplete="new-password"
          name="again"
          placeholder={t`请再次输入新密码`}
          value={again}
          onChange={(e: { target: { value: string } }) => change.send({ type: 'password.again.change', value: e.target.value })}
        />
      </List>
      <FormMessage>{feedback ? i18n._(feedback) : undefined}</FormMessage>
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={saving || done}>
          {saving ? <Trans>提交中…</Trans> : <Trans>确认修改</Trans>}
        </Button>
      </Block>
    </form>
  );
}
