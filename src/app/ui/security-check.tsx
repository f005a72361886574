import { useEffect } from 'react';
import type { CaptchaAnswer, CaptchaNeeded } from '../../contracts/auth';
import { useConfirm } from './confirm';

let solver: ((need: CaptchaNeeded) => Promise<CaptchaAnswer | null>) | undefined;

/**
 * The security check the server asked for (10020, decision 056), for the API client's onCaptcha: the
 * widget's answer, or null when the member closed it (or no app is mounted to show it).
 */
export function solveSecurityCheck(need: CaptchaNeeded): Promise<CaptchaAnswer | null> {
  return solver ? solver(need) : Promise.resolve(null);
}

/**
 * Mounted once inside the providers: lends the API client the widget (it needs the confirm dialog).
 * The widget's code is its own chunk, fetched the first time the server asks for the check.
 */
export function SecurityCheckBridge() {
  const confirm = useConfirm();
  useEffect(() => {
    const mine = (need: CaptchaNeeded) => import('./security-check-widget').then((w) => w.openWidget(need, confirm));
    solver = mine;
    return () => {
      if (solver === mine) solver = undefined;
    };
  }, [confirm]);
  return null;
}
