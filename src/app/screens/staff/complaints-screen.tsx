import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffComplaint } from '../../../api/complaints';
import { COMPLAINT_MAX_CHARS } from '../../../domain/complaint';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';
import { DecisionNotice } from './decision-notice';
import { useStaffDecisions, type StaffDecisions } from './use-staff-decisions';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).complaints.staffQueue());

/**
 * /staff/complaints (decision 033): the complaints of my clubs (and those naming no club) waiting for
 * a reply, the ones unanswered for 48 hours flagged and first. A reply is one intent (Idempotency-Key);
 * the member is notified.
 */
export default function StaffComplaintsScreen() {
  const d = useLoaderData() as StaffData<StaffComplaint[]>;
  const decisions = useStaffDecisions();
  return (
    <StaffPage d={d} onRetry={decisions.revalidate} title={<Trans>投诉处理</Trans>}>
      {(list) =>
        list.length === 0 ? (
          <p className="p-6 text-center text-sm text-black/60">
            <Trans>没有待回复的投诉</Trans>
          </p>
        ) : (
          <ul className="mx-4 mt-3 divide-y divide-black/5 rounded-xl bg-white" data-staff-complaints>
            {list.map((c) => (
              <ComplaintToAnswer key={c.id} c={c} decisions={decisions} />
            ))}
          </ul>
        )
      }
    </StaffPage>
  );
}

function ComplaintToAnswer({ c, decisions }: { c: StaffComplaint; decisions: StaffDecisions }) {
  const { t } = useLingui();
  const { reasons, setReasons, ready, busy, act } = decisions;
  const text = reasons[c.id] ?? '';
  const send = () => act(c.id, (key) => browserApiOrThrow().complaints.staffReply(c.id, text, key));
  return (
    <li className="space-y-1 p-3 text-sm" data-staff-complaint={c.id} data-overdue={c.overdue}>
      {c.overdue ? (
        <p className="font-medium text-rose-600">
          <Trans>超过48小时未回复</Trans>
        </p>
      ) : null}
      <p className="whitespace-pre-wrap">{c.content}</p>
      <p className="text-xs text-black/60">
        {c.memberPhone} · {c.clubName ?? t`未指定门店`} · {shanghaiFormat(new Date(c.createdAt), 'YYYY-MM-DD HH:mm')}
      </p>
      {c.imageIds.length > 0 ? (
        <div className="flex gap-2">
          {c.imageIds.map((id) => (
            <a key={id} href={`/api/staff/complaints/image/${id}`} target="_blank" rel="noreferrer">
              <img src={`/api/staff/complaints/image/${id}`} alt="" className="h-16 w-16 rounded object-cover" />
            </a>
          ))}
        </div>
      ) : null}
      <textarea
        name="reply"
        aria-label={t`回复内容`}
        className="h-20 w-full rounded-lg border border-black/10 p-2"
        maxLength={COMPLAINT_MAX_CHARS}
        value={text}
        onChange={(e) => setReasons({ ...reasons, [c.id]: e.target.value })}
      />
      <DecisionNotice decisions={decisions} id={c.id} />
      <Button small rounded inline disabled={!ready} onClick={() => void send()}>
        {busy === c.id ? <Trans>提交中…</Trans> : <Trans>回复</Trans>}
      </Button>
    </li>
  );
}
