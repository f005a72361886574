import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { TeacherRequestView } from '../../../api/binding';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';
import { DecisionNotice } from './decision-notice';
import { useStaffDecisions } from './use-staff-decisions';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.teacherRequests());

/** /staff/teacherRequests: new teachers waiting, oldest first; confirm, or refuse with the reason they read. */
export default function TeacherRequestsScreen() {
  const d = useLoaderData() as StaffData<TeacherRequestView[]>;
  const { t } = useLingui();
  const decisions = useStaffDecisions();
  const { revalidate, reasons, setReasons, ready, act: decide } = decisions;
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>新老师申请</Trans>}>
      {(list) =>
        list.length === 0 ? (
          <p className="p-6 text-center text-sm text-black/60" data-empty>
            <Trans>没有等待处理的申请</Trans>
          </p>
        ) : (
          <ul className="grid-12 md:cols-2 gap-y-3 p-4" data-request-list>
            {list.map((r) => (
              <li key={r.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-black/5" data-request={r.id}>
                <div className="flex gap-3">
                  <img
                    src={`/api/staff/teacher-requests/${r.id}/photo`}
                    alt=""
                    width={64}
                    height={64}
                    className="h-16 w-16 rounded-lg bg-black/5 object-cover"
                  />
                  <div className="text-sm">
                    <p className="text-base font-medium">{r.name}</p>
                    <p>{r.phone}</p>
                    <p className="text-black/60">
                      {r.clubName} · {r.styles.join(' / ')}
                    </p>
                    <p className="text-xs text-black/60">{shanghaiFormat(new Date(r.createdAt), 'YYYY-MM-DD HH:mm')}</p>
                  </div>
                </div>
                <input
                  className="mt-3 block min-h-11 w-full rounded-lg border border-black/15 px-3 text-sm"
                  name={`reason-${r.id}`}
                  placeholder={t`拒绝原因（拒绝时必填）`}
                  value={reasons[r.id] ?? ''}
                  onChange={(e) => setReasons({ ...reasons, [r.id]: e.target.value })}
                />
                <DecisionNotice decisions={decisions} id={r.id} className="mt-1 text-sm" />
                <div className="mt-3 flex gap-2">
                  <Button
                    small
                    rounded
                    inline
                    disabled={!ready}
                    onClick={() => void decide(r.id, () => browserApiOrThrow().staff.confirmRequest(r.id))}
                  >
                    <Trans>确认</Trans>
                  </Button>
                  <Button
                    small
                    rounded
                    inline
                    outline
                    disabled={!ready || !(reasons[r.id] ?? '').trim()}
                    onClick={() => void decide(r.id, () => browserApiOrThrow().staff.refuseRequest(r.id, (reasons[r.id] ?? '').trim()))}
                  >
                    <Trans>拒绝</Trans>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </StaffPage>
  );
}
