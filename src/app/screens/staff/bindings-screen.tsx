import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { BindingRow } from '../../../api/binding';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useConfirm } from '../../ui/confirm';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.bindings());

/** /staff/bindings: teachers and staff with a bound messaging identity; unbinding (theirs sessions end). */
export default function BindingsScreen() {
  const d = useLoaderData() as StaffData<BindingRow[]>;
  const { i18n, t } = useLingui();
  const revalidate = useStableRevalidate();
  const confirm = useConfirm();
  const [error, setError] = useState<number | null>(null);
  const unbind = async (row: BindingRow) => {
    if (!(await confirm({ message: t`解除 ${row.name ?? row.phone} 的微信绑定？解除后需重新绑定。` })).confirmed) return;
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.unbind(row.accountId);
      if (r.code !== 200) setError(r.code);
    } catch {
      setError(70002);
    }
    revalidate();
  };
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>已绑定账号</Trans>}>
      {(rows) => (
        <>
          {error !== null ? (
            <p role="alert" className="px-4 pt-2 text-sm text-rose-600">
              {i18n._(refusalMessage(error))}
            </p>
          ) : null}
          <ul className="mx-4 mt-3 divide-y divide-black/5 rounded-xl bg-white" data-binding-list>
            {rows.map((r) => (
              <li key={r.accountId} className="flex items-center justify-between gap-2 p-3 text-sm" data-binding={r.accountId}>
                <span>
                  {r.name ?? r.phone} · {r.role === 'teacher' ? <Trans>老师</Trans> : <Trans>员工</Trans>}
                  <span className="block text-xs text-black/60">
                    {r.phone} · {shanghaiFormat(new Date(r.since), 'YYYY-MM-DD HH:mm')}
                  </span>
                </span>
                <Button small rounded inline outline onClick={() => void unbind(r)}>
                  <Trans>解除绑定</Trans>
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </StaffPage>
  );
}
