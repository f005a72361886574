import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffAccountClosing } from '../../../api/account-closing';
import { CLOSING_REASON_MAX } from '../../../domain/account-closing';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';
import { DecisionConfirm } from './decision-confirm';
import { DecisionNotice } from './decision-notice';
import { useStaffDecisions, type StaffDecisions } from './use-staff-decisions';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).accountClosing.staffQueue());

/**
 * /staff/accountClosings (decision 057): members' requests to close their account, oldest first.
 * Confirm erases the member's personal data (money and legal records kept; refused while they hold
 * something of value); refuse needs the reason the member reads. Both go to the audit log.
 */
export default function StaffAccountClosingsScreen() {
  const d = useLoaderData() as StaffData<StaffAccountClosing[]>;
  const decisions = useStaffDecisions();
  return (
    <StaffPage d={d} onRetry={decisions.revalidate} title={<Trans>注销申请</Trans>}>
      {(list) => (
        <>
          {list.length === 0 ? (
            <p className="p-6 text-center text-sm text-black/60">
              <Trans>没有待处理的注销申请</Trans>
            </p>
          ) : (
            <ul className="mx-4 mt-3 divide-y divide-black/5 rounded-xl bg-white" data-staff-closings>
              {list.map((r) => (
                <ClosingToDecide key={r.id} r={r} decisions={decisions} />
              ))}
            </ul>
          )}
          <DecisionConfirm
            decisions={decisions}
            title={<Trans>注销账户</Trans>}
            confirmText={<Trans>确定注销</Trans>}
            what={(id) => <ClosingWillDo r={list.find((r) => r.id === id)} />}
          />
        </>
      )}
    </StaffPage>
  );
}

/** What confirming a closing does, said before it is sent: whose account, and that it cannot be undone. */
function ClosingWillDo({ r }: { r: StaffAccountClosing | undefined }) {
  if (!r) return null;
  const who = r.memberName ? `${r.memberName}（${r.memberPhone}）` : r.memberPhone;
  return <Trans>注销{who}的账户？其个人信息将被删除且无法再登录，不能撤回；订单、支付、流水、发票和操作记录保留。</Trans>;
}

function ClosingToDecide({ r, decisions }: { r: StaffAccountClosing; decisions: StaffDecisions }) {
  const { t } = useLingui();
  const { reasons, setReasons, ready, busy, act } = decisions;
  const reason = reasons[r.id] ?? '';
  const decide = (confirm: boolean) =>
    act(
      r.id,
      (key) => {
        const api = browserApiOrThrow();
        return confirm ? api.accountClosing.staffConfirm(r.id, key) : api.accountClosing.staffRefuse(r.id, reason, key);
      },
      confirm,
    );
  return (
    <li className="space-y-1 p-3 text-sm" data-staff-closing={r.id}>
      <p className="font-medium">
        {r.memberPhone} {r.memberName ?? ''}
      </p>
      <p className="text-xs text-black/60">{shanghaiFormat(new Date(r.createdAt), 'YYYY-MM-DD HH:mm')}</p>
      {r.note ? <p>{r.note}</p> : null}
      <p className="text-xs text-black/60">
        <Trans>确认后删除该会员的个人信息并无法登录；订单、支付、流水、发票和操作记录保留。</Trans>
      </p>
      <textarea
        name="reason"
        aria-label={t`拒绝原因`}
        className="h-16 w-full rounded-lg border border-black/10 p-2"
        maxLength={CLOSING_REASON_MAX}
        value={reason}
        onChange={(e) => setReasons({ ...reasons, [r.id]: e.target.value })}
      />
      <DecisionNotice decisions={decisions} id={r.id} />
      <div className="flex gap-2">
        <Button small rounded inline disabled={!ready} onClick={() => void decide(true)}>
          {busy === r.id ? <Trans>提交中…</Trans> : <Trans>确认注销</Trans>}
        </Button>
        <Button small rounded inline outline disabled={!ready} onClick={() => void decide(false)}>
          <Trans>拒绝</Trans>
        </Button>
      </div>
    </li>
  );
}
