import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, Checkbox, List, Segmented, SegmentedButton, Sheet } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router-dom';
import Cookies from 'universal-cookie';
import { fromPromise } from 'xstate';
import { authLoginMachine } from '../../../../machines/auth-login.machine';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { actorTimers } from '../../app-clock';
import { newPasswordFirstPath } from '../../../domain/initial-password';
import { redirectMemberHome, returnPath } from '../../session/request-session';
import { SessionContext } from '../../session/session-provider';
import { AgreementText, memberServiceClauses, privacyClauses } from '../orders/agreement-text';
import { feedbackOf } from './auth-messages';
import { CodeButton, CodeField, FormMessage } from './code-button';
import { smsCodeWithApi, useSmsCode } from './sms-code';

/** A logged-in member sent to /login lands on Homepage (spec §2). */
export function loader({ context }: LoaderFunctionArgs) {
  redirectMemberHome(context);
  return null;
}

/** /login and /login/:from: code and password tabs, resend countdown, agreement (spec §5). */
export default function LoginScreen() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const { from } = useParams();
  const session = SessionContext.useActorRef();
  const back = returnPath(from);

  const logic = useMemo(
    () =>
      authLoginMachine.provide({
        actors: {
          smsCode: smsCodeWithApi(),
          login: fromPromise(({ input }) => browserApiOrThrow().auth.login(input)),
        },
        actions: {
          handOver: ({ context }) => {
            // a login with an initial password sets a new one first (decision 054), then goes on to where the member was going
            // the server has just set the session cookies: take the messaging-app avatar and nickname from them
            const jar = new Cookies(undefined, { path: '/' });
            const user = {
              ...context.user!,
              wxAvatar: jar.get('wxAvatar', { doNotParse: true }) || context.user!.wxAvatar,
              wxNicName: jar.get('wxNicName', { doNotParse: true }) || context.user!.wxNicName,
            };
            session.send({ type: 'session.login', token: context.token!, user });
            void navigate(context.mustChangePassword ? newPasswordFirstPath(back) : back, { replace: true });
          },
        },
      }),
    [session, navigate, back],
  );
  const openIdTicket =
    typeof document === 'undefined' ? undefined : new Cookies(undefined, { path: '/' }).get('openId', { doNotParse: true }) || undefined;
  const login = useActorRef(logic, { input: { openIdTicket }, ...actorTimers() });

  const tab = useSelector(login, (s) => (s.matches({ active: { tab: 'password' } }) ? 'password' : 'code'));
  const phone = useSelector(login, (s) => s.context.phone);
  const code = useSelector(login, (s) => s.context.code);
  const password = useSelector(login, (s) => s.context.password);
  const agreed = useSelector(login, (s) => s.context.agreed);
  const submitting = useSelector(login, (s) => s.matches({ active: { form: 'submitting' } }) || s.status === 'done');
  const feedback = useSelector(login, (s) => feedbackOf(s, s.context.errorCode));
  const expired = useSelector(
    login,
    (s) => s.matches({ active: { form: { editing: 'refused' } } }) && s.context.errorCode === Errors.phonePasswordExpired.code,
  );
  const banned = useSelector(
    login,
    (s) => s.matches({ active: { form: { editing: 'refused' } } }) && s.context.errorCode === Errors.banned.code,
  );
  const { sending, remaining, problem: sendProblem } = useSmsCode(login);
  const message = feedback ?? sendProblem;

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        login.send({ type: 'login.submit' });
      }}
    >
      <Block className="!mt-8 !mb-4 text-center">
        <h1 className="text-2xl font-semibold">
          <Trans>欢迎来到瑜伽会馆</Trans>
        </h1>
        <p className="mt-1 text-sm text-black/60">
          <Trans>登录后可预约课程、查看会员价</Trans>
        </p>
      </Block>
      <Block className="!my-2">
        <Segmented strong rounded>
          <SegmentedButton component="button" type="button" active={tab === 'code'} onClick={() => login.send({ type: 'login.tab.code' })}>
            <Trans>验证码登录</Trans>
          </SegmentedButton>
          <SegmentedButton
            component="button"
            type="button"
            active={tab === 'password'}
            onClick={() => login.send({ type: 'login.tab.password' })}
          >
            <Trans>密码登录</Trans>
          </SegmentedButton>
        </Segmented>
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
          onChange={(e: { target: { value: string } }) => login.send({ type: 'login.phone.change', value: e.target.value })}
        />
        {tab === 'code' ? (
          <CodeField
            name="code"
            placeholder={t`请输入验证码`}
            value={code}
            onChange={(value) => login.send({ type: 'login.code.change', value })}
            button={<CodeButton sending={sending} remaining={remaining} onSend={() => login.send({ type: 'login.code.send' })} />}
          />
        ) : (
          <LabelledInput
            label={<Trans>密码</Trans>}
            type="password"
            autoComplete="current-password"
            name="password"
            placeholder={t`请输入密码`}
            value={password}
            onChange={(e: { target: { value: string } }) => login.send({ type: 'login.password.change', value: e.target.value })}
          />
        )}
      </List>
      {tab === 'password' ? <InitialPasswordHint /> : null}
      <FormMessage>{message ? i18n._(message) : undefined}</FormMessage>
      {expired ? (
        <p className="mx-4 -mt-1 mb-2 text-sm">
          <Link to="/login/forgetpassword" className="inline-flex min-h-11 items-center text-primary" data-set-password-by-code>
            <Trans>用验证码设置新密码</Trans>
          </Link>
        </p>
      ) : null}
      {banned ? (
        <p className="mx-4 -mt-1 mb-2 text-sm" data-banned-way-on>
          <Trans>账号被禁用时，请联系门店前台处理。</Trans>{' '}
          <Link to="/club" className="inline-flex min-h-11 items-center text-primary">
            <Trans>联系门店</Trans>
          </Link>
        </p>
      ) : null}
      <Block className="!my-3">
        <LoginAgreements agreed={agreed} onChange={(value) => login.send({ type: 'login.agreement.change', agreed: value })} />
      </Block>
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={submitting} data-testid="login-submit">
          {submitting ? <Trans>登录中…</Trans> : <Trans>登录</Trans>}
        </Button>
        <div className="mt-4 flex justify-between text-sm">
          <Link to="/login/forgetpassword" className="text-primary">
            <Trans>忘记密码？</Trans>
          </Link>
          <Link to="/" className="text-black/60">
            <Trans>先随便看看</Trans>
          </Link>
        </div>
      </Block>
    </form>
  );
}

/**
 * The password tab's hint (spec §9 "default password hint {secret}", decision 054): where a member
 * registered at the desk finds their first password, never how one is formed.
 */
function InitialPasswordHint() {
  return (
    <p className="mx-4 -mt-2 mb-2 text-sm text-black/60" data-initial-password-hint>
      <Trans>门店前台开通的会员，请使用前台交给您的初始密码登录，首次登录须设置新密码。</Trans>
    </p>
  );
}

type AgreementDoc = 'service' | 'privacy';

/**
 * The tick box and the two documents it accepts (spec §5 calls them together the user agreement):
 * each opens in a sheet over the form, so what the member typed stays.
 */
function LoginAgreements(props: { agreed: boolean; onChange: (agreed: boolean) => void }) {
  const [open, setOpen] = useState<AgreementDoc | null>(null);
  const { t } = useLingui();
  const docButton = (doc: AgreementDoc, label: ReactNode) => (
    <button type="button" className="min-h-11 text-primary" data-agreement-link={doc} onClick={() => setOpen(doc)}>
      {label}
    </button>
  );
  return (
    <>
      <div className="flex flex-wrap items-center gap-x-1 text-sm text-black/70">
        <label className="flex min-h-11 items-center gap-2">
          <Checkbox
            component="div"
            name="agreement"
            checked={props.agreed}
            onChange={(e: { target: { checked: boolean } }) => props.onChange(e.target.checked)}
          />
          <span>
            <Trans>我已阅读并同意</Trans>
          </span>
        </label>
        {docButton('service', <Trans>《会员服务协议》</Trans>)}
        <span>
          <Trans>和</Trans>
        </span>
        {docButton('privacy', <Trans>《隐私政策》</Trans>)}
      </div>
      <Sheet
        opened={open !== null}
        onBackdropClick={() => setOpen(null)}
        className="max-h-[85vh] overflow-y-auto pb-safe"
        role="dialog"
        aria-modal={open !== null}
        aria-hidden={open === null}
        aria-label={open === 'privacy' ? t`隐私政策` : t`会员服务协议`}
      >
        {open === 'service' && (
          <AgreementText
            id="member-service"
            title={<Trans>会员服务协议</Trans>}
            clauses={memberServiceClauses()}
            onClose={() => setOpen(null)}
          />
        )}
        {open === 'privacy' && (
          <AgreementText id="privacy" title={<Trans>隐私政策</Trans>} clauses={privacyClauses()} onClose={() => setOpen(null)} />
        )}
      </Sheet>
    </>
  );
}
