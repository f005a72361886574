import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import type { MyAccountClosing } from '../../../api/account-closing';
import { apiFrom } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { CloseAccountView } from './close-account-view';

interface CloseAccountData {
  /** undefined: the server could not be reached; null: never asked */
  request: MyAccountClosing | null | undefined;
}

export async function loader({ context }: LoaderFunctionArgs): Promise<CloseAccountData> {
  try {
    const r = await apiFrom(context).accountClosing.mine();
    return { request: r.code === 200 ? r.data : undefined };
  } catch {
    return { request: undefined };
  }
}

/**
 * /mine/closeAccount (requiresLogin; PIPL; decision 057): what closing the account erases and keeps,
 * asking for it, the request's state (under review with a withdraw button, or refused with staff's
 * reason).
 */
export default function CloseAccountScreen() {
  const { request } = useLoaderData() as CloseAccountData;
  const revalidate = useStableRevalidate();
  if (request === undefined)
    return (
      <Block className="text-center text-sm" role="alert">
        <p className="text-rose-600">
          <Trans>网络无法连接</Trans>
        </p>
        <Button rounded inline className="mx-auto mt-2" onClick={revalidate}>
          <Trans>重试</Trans>
        </Button>
      </Block>
    );
  return <CloseAccountView request={request} />;
}
