import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useEffect } from 'react';
import { useLocation, useNavigate, type LoaderFunctionArgs } from 'react-router-dom';
import { redirectMemberHome } from '../../session/request-session';
import { useToast } from '../../ui/toast';
import { FormMessage } from './code-button';
import { useResetFeedback, useResetPassword } from './use-reset-password';

export function loader({ context }: LoaderFunctionArgs) {
  redirectMemberHome(context);
  return null;
}

/** /login/newpass: step two of the reset; without a ticket from step one, back to step one. */
export default function NewPasswordScreen() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const toast = useToast();
  const location = useLocation();
  const state = (location.state ?? {}) as { ticket?: string; phone?: string };
  const reset = useResetPassword({ ticket: state.ticket, phone: state.phone });
  const password = useSelector(reset, (s) => s.context.password);
  const again = useSelector(reset, (s) => s.context.again);
  const saving = useSelector(reset, (s) => s.matches({ newPassword: 'saving' }));
  const needsStepOne = useSelector(reset, (s) => s.matches('verify'));
  const done = useSelector(reset, (s) => s.status === 'done');
  const ticketDead = useSelector(reset, (s) => s.matches({ newPassword: { editing: 'refused' } }) && s.context.errorCode === 10012);
  const feedback = useResetFeedback(reset);

  useEffect(() => {
    // back to step one with the phone already typed
    if (needsStepOne) void navigate('/login/forgetpassword', { replace: true, state: { phone: reset.getSnapshot().context.phone } });
  }, [needsStepOne, navigate, reset]);
  useEffect(() => {
    if (!done) return;
    toast(t`密码已重置，请用新密码登录`);
    void navigate('/login', { replace: true });
  }, [done, navigate, toast, t]);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        reset.send({ type: 'reset.save' });
      }}
    >
      <Block className="!mt-6 !mb-2">
        <h1 className="text-xl font-semibold">
          <Trans>设置新密码</Trans>
        </h1>
        <p className="mt-1 text-sm text-black/60">
          <Trans>密码为6到15位</Trans>
        </p>
      </Block>
      <List strong inset className="!my-4">
        <LabelledInput
          label={<Trans>新密码</Trans>}
          type="password"
          autoComplete="new-password"
          name="password"
          placeholder={t`请输入新密码`}
          value={password}
          onChange={(e: { target: { value: string } }) => reset.send({ type: 'reset.password.change', value: e.target.value })}
        />
        <LabelledInput
          label={<Trans>确认密码</Trans>}
          type="password"
          autoComplete="new-password"
          name="again"
          placeholder={t`请再次输入新密码`}
          value={again}
          onChange={(e: { target: { value: string } }) => reset.send({ type: 'reset.again.change', value: e.target.value })}
        />
      </List>
      <FormMessage>{feedback ? i18n._(feedback) : undefined}</FormMessage>
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={saving || done}>
          {saving ? <Trans>提交中…</Trans> : <Trans>确认修改</Trans>}
        </Button>
        {ticketDead && (
          <Button clear className="mt-3" type="button" onClick={() => reset.send({ type: 'reset.restart' })}>
            <Trans>重新验证手机号</Trans>
          </Button>
        )}
      </Block>
    </form>
  );
}
