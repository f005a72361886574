import { useLingui } from '@lingui/react';
import { useEffect } from 'react';
import { useToast } from '../ui/toast';
import { SessionContext } from './session-provider';

/** The parts of the expiry effects that live in React (toast, session actor); entry-client adds the router. */
export interface ReactExpiryEffects {
  toast(): void;
  expire(): void;
}

let current: ReactExpiryEffects | undefined;

/** The toast and session actor of the mounted app, for the API client's onExpired (spec §7). */
export function reactExpiryEffects(): ReactExpiryEffects | undefined {
  return current;
}

/** Mounted once inside the providers: lends the API client's onExpired the toast and the session actor. */
export function SessionExpiryBridge() {
  const toast = useToast();
  const session = SessionContext.useActorRef();
  const { i18n } = useLingui();
  useEffect(() => {
    const effects: ReactExpiryEffects = {
      // the error catalogue is not part of every page's first load: it comes when a session ends
      toast: () =>
        void import('../../domain/errors').then(({ Errors }) => toast({ message: i18n._(Errors.loginExpired.message), type: 'fail' })),
      expire: () => session.send({ type: 'session.expired' }),
    };
    current = effects;
    return () => {
      if (current === effects) current = undefined;
    };
  }, [toast, session, i18n]);
  return null;
}
