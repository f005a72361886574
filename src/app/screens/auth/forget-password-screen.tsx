import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useEffect } from 'react';
import { useLocation, useNavigate, type LoaderFunctionArgs } from 'react-router-dom';
import { redirectMemberHome } from '../../session/request-session';
import { CodeButton, CodeField, FormMessage } from './code-button';
import { useSmsCode } from './sms-code';
import { useResetFeedback, useResetPassword } from './use-reset-password';

export function loader({ context }: LoaderFunctionArgs) {
  redirectMemberHome(context);
  return null;
}

/** /login/forgetpassword: step one of the reset, the phone proved by an SMS code. */
export default function ForgetPasswordScreen() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  // back from step two (the ticket expired), the phone comes along
  const { phone: phoneBack } = (useLocation().state ?? {}) as { phone?: string };
  const reset = useResetPassword({ phone: phoneBack });
  const phone = useSelector(reset, (s) => s.context.phone);
  const code = useSelector(reset, (s) => s.context.code);
  const verifying = useSelector(reset, (s) => s.matches({ verify: { form: 'verifying' } }));
  const ticket = useSelector(reset, (s) => (s.matches('newPassword') ? s.context.ticket : undefined));
  const { sending, remaining, problem: sendProblem } = useSmsCode(reset);
  const feedback = useResetFeedback(reset) ?? sendProblem;

  // step two has its own route; the ticket travels in the location state
  useEffect(() => {
    if (ticket) void navigate('/login/newpass', { state: { ticket, phone: phone.trim() } });
  }, [ticket, phone, navigate]);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        reset.send({ type: 'reset.verify' });
      }}
    >
      <Block className="!mt-6 !mb-2">
        <h1 className="text-xl font-semibold">
          <Trans>找回密码</Trans>
        </h1>
        <p className="mt-1 text-sm text-black/60">
          <Trans>输入注册手机号和短信验证码，下一步设置新密码</Trans>
        </p>
      </Block>
      <List strong inset className="!my-4">
        <LabelledInput
          label={<Trans>手机号</Trans>}
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          name="phone"
          placeholder={t`请输入手机号`}
          value={phone}
          onChange={(e: { target: { value: string } }) => reset.send({ type: 'reset.phone.change', value: e.target.value })}
        />
        <CodeField
          name="code"
          placeholder={t`请输入验证码`}
          value={code}
          onChange={(value) => reset.send({ type: 'reset.code.change', value })}
          button={<CodeButton sending={sending} remaining={remaining} onSend={() => reset.send({ type: 'reset.code.send' })} />}
        />
      </List>
      <FormMessage>{feedback ? i18n._(feedback) : undefined}</FormMessage>
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={verifying || !!ticket}>
          {verifying ? <Trans>验证中…</Trans> : <Trans>下一步</Trans>}
        </Button>
      </Block>
    </form>
  );
}
