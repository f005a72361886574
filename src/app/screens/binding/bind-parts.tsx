import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import Cookies from 'universal-cookie';
import type { LoginEnvelope } from '../../../api/auth';
import { Errors } from '../../../domain/errors';
import { SessionContext } from '../../session/session-provider';
import { refusalMessage } from '../../ui/refusal-message';
import { silentLoginAgain } from './bind-data';

/** "Empty open id" (60001): said, with the silent login run again to come back to this page. */
export function NoOpenId(props: { from: string }) {
  const { i18n } = useLingui();
  return (
    <Block className="!my-3 rounded-lg bg-amber-50 !py-3 text-sm text-amber-900" data-no-openid>
      <p role="alert">{i18n._(Errors.emptyOpenId.message)}</p>
      <a className="mt-2 inline-flex min-h-11 items-center rounded-full bg-amber-600 px-4 text-white" href={silentLoginAgain(props.from)}>
        <Trans>重新获取微信身份</Trans>
      </a>
    </Block>
  );
}

/** The lookup of the binding failed (60009 query failed, or the network): said, with a retry. */
export function BindQueryFailed(props: { code: number; onRetry(): void }) {
  const { i18n } = useLingui();
  return (
    <Block className="!my-6 text-center" data-bind-query-failed>
      <p role="alert" className="text-sm text-rose-600">
        {i18n._(refusalMessage(props.code))}
      </p>
      <Button rounded inline className="mt-3" onClick={props.onRetry}>
        <Trans>重试</Trans>
      </Button>
    </Block>
  );
}

/** After a binding: the session takes the login the server answered (its cookies are set), and the page moves on. */
export function useHandOver(to: string) {
  const session = SessionContext.useActorRef();
  const navigate = useNavigate();
  return useCallback(
    (envelope: LoginEnvelope) => {
      const d = envelope.data;
      const jar = new Cookies(undefined, { path: '/' });
      session.send({
        type: 'session.login',
        token: envelope.token,
        user: {
          customerId: d.id,
          username: d.username,
          userLevel: String(d.level ?? ''),
          ...(jar.get('wxAvatar', { doNotParse: true }) ? { wxAvatar: jar.get('wxAvatar', { doNotParse: true }) as string } : {}),
          ...(jar.get('wxNicName', { doNotParse: true }) ? { wxNicName: jar.get('wxNicName', { doNotParse: true }) as string } : {}),
        },
      });
      void navigate(to, { replace: true });
    },
    [session, navigate, to],
  );
}
