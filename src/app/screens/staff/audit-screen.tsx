import { Trans, useLingui } from '@lingui/react/macro';
import { type LoaderFunctionArgs, useLoaderData, useSearchParams } from 'react-router-dom';
import type { AuditEntry } from '../../../contracts/staff-audit';
import { AUDIT_ACTION_VALUES, AUDIT_ACTIONS, AUDIT_SUBJECTS, type AuditAction } from '../../../domain/audit';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';

const isAction = (a: string | null): a is AuditAction => a !== null && (AUDIT_ACTION_VALUES as string[]).includes(a);

/** The filters in the page's address (?staffId=&action=), so a filtered view can be linked and reloaded. */
function filtersOf(params: URLSearchParams): { staffId?: number; action?: AuditAction } {
  const staffId = Number(params.get('staffId'));
  const action = params.get('action');
  return { staffId: Number.isInteger(staffId) && staffId > 0 ? staffId : undefined, action: isAction(action) ? action : undefined };
}

export const loader = ({ context, request }: LoaderFunctionArgs) =>
  staffRead(() => apiFrom(context).staff.audit(filtersOf(new URL(request.url).searchParams)));

/**
 * /staff/audit (decision 055): the audit log, newest first: which staff member did or looked at what,
 * why (a revealed ID number's reason), when and from which address. Filter by action, or tap a staff
 * member to see only theirs.
 */
export default function AuditScreen() {
  const d = useLoaderData() as StaffData<AuditEntry[]>;
  const { i18n, t } = useLingui();
  const revalidate = useStableRevalidate();
  const [params, setParams] = useSearchParams();
  const { staffId, action } = filtersOf(params);
  const setFilter = (key: 'staffId' | 'action', value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>操作记录</Trans>}>
      {(list) => (
        <>
          <form className="flex flex-wrap items-end gap-3 px-4 pt-3 text-sm" data-audit-filters onSubmit={(e) => e.preventDefault()}>
            <label className="flex flex-col gap-1">
              <Trans>操作</Trans>
              <select
                className="min-h-11 rounded-lg border border-black/15 px-2"
                name="action"
                value={action ?? ''}
                onChange={(e) => setFilter('action', e.target.value || null)}
              >
                <option value="">{t`全部操作`}</option>
                {AUDIT_ACTION_VALUES.map((a) => (
                  <option key={a} value={a}>
                    {i18n._(AUDIT_ACTIONS[a])}
                  </option>
                ))}
              </select>
            </label>
            {staffId !== undefined ? (
              <button
                type="button"
                className="min-h-11 rounded-lg border border-black/15 px-3"
                data-clear-staff
                onClick={() => setFilter('staffId', null)}
              >
                <Trans>显示全部员工</Trans>
              </button>
            ) : null}
          </form>
          {list.length === 0 ? (
            <p className="p-6 text-center text-sm text-black/60">
              <Trans>没有符合条件的记录</Trans>
            </p>
          ) : (
            <ul className="grid gap-y-2 p-4" data-audit-list>
              {list.map((e) => (
                <li
                  key={e.id}
                  className="rounded-xl bg-white p-3 text-sm shadow-sm ring-1 ring-black/5"
                  data-audit-entry={e.id}
                  data-action={e.action}
                >
                  <p className="font-medium">
                    {i18n._(AUDIT_ACTIONS[e.action])} · {i18n._(AUDIT_SUBJECTS[e.subjectKind])} #{e.subjectId ?? '—'}
                  </p>
                  {e.reason ? (
                    <p data-audit-reason>
                      <Trans>原因：{e.reason}</Trans>
                    </p>
                  ) : null}
                  <p className="mt-1 text-xs text-black/60">
                    <button
                      type="button"
                      className="text-primary underline"
                      data-audit-staff={e.staffId}
                      onClick={() => setFilter('staffId', String(e.staffId))}
                    >
                      {e.staffName ?? e.staffPhone}
                    </button>{' '}
                    · {shanghaiFormat(new Date(e.at), 'YYYY-MM-DD HH:mm:ss')} · {e.clientIp} · {e.requestId}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </StaffPage>
  );
}
