import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffInvoice } from '../../../api/invoices';
import { INVOICE_REASON_MAX } from '../../../domain/invoice';
import { formatYuan } from '../../../domain/money';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';
import { DecisionNotice } from './decision-notice';
import { useStaffDecisions, type StaffDecisions } from './use-staff-decisions';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).invoices.staffQueue());

/**
 * /staff/invoices (decision 044): the invoice requests of my clubs (and those spanning clubs) waiting
 * to be issued, oldest first. Issue writes the number and the PDF; refuse needs the reason the member
 * reads. Each is one intent (Idempotency-Key); the member is notified.
 */
export default function StaffInvoicesScreen() {
  const d = useLoaderData() as StaffData<StaffInvoice[]>;
  const decisions = useStaffDecisions();
  return (
    <StaffPage d={d} onRetry={decisions.revalidate} title={<Trans>开具发票</Trans>}>
      {(list) =>
        list.length === 0 ? (
          <p className="p-6 text-center text-sm text-black/60">
            <Trans>没有待开具的发票</Trans>
          </p>
        ) : (
          <ul className="mx-4 mt-3 divide-y divide-black/5 rounded-xl bg-white" data-staff-invoices>
            {list.map((i) => (
              <InvoiceToDecide key={i.id} i={i} decisions={decisions} />
            ))}
          </ul>
        )
      }
    </StaffPage>
  );
}

function InvoiceToDecide({ i, decisions }: { i: StaffInvoice; decisions: StaffDecisions }) {
  const { t } = useLingui();
  const { reasons, setReasons, ready, busy, act } = decisions;
  const reason = reasons[i.id] ?? '';
  const decide = (issue: boolean) =>
    act(i.id, (key) => {
      const api = browserApiOrThrow();
      return issue ? api.invoices.staffIssue(i.id, key) : api.invoices.staffRefuse(i.id, reason, key);
    });
  return (
    <li className="space-y-1 p-3 text-sm" data-staff-invoice={i.id}>
      <p className="font-medium">{i.title}</p>
      <p>
        <Trans>纳税人识别号</Trans> {i.taxNumber}
      </p>
      <p>{i.address}</p>
      {i.phone ? <p>{i.phone}</p> : null}
      {i.bankName || i.bankAccount ? (
        <p>
          {i.bankName} {i.bankAccount}
        </p>
      ) : null}
      <ul className="text-xs text-black/60">
        {i.orders.map((o) => (
          <li key={o.id}>
            {o.orderNo} · {o.goodsName} · {formatYuan(o.amountCents)}
          </li>
        ))}
      </ul>
      <p className="font-medium" data-staff-invoice-total>
        <Trans>合计 {formatYuan(i.totalCents)}</Trans>
      </p>
      <p className="text-xs text-black/60">
        {i.memberPhone} · {i.clubName ?? t`多家门店`} · {shanghaiFormat(new Date(i.createdAt), 'YYYY-MM-DD HH:mm')}
      </p>
      <textarea
        name="reason"
        aria-label={t`拒绝原因`}
        className="h-16 w-full rounded-lg border border-black/10 p-2"
        maxLength={INVOICE_REASON_MAX}
        value={reason}
        onChange={(e) => setReasons({ ...reasons, [i.id]: e.target.value })}
      />
      <DecisionNotice decisions={decisions} id={i.id} />
      <div className="flex gap-2">
        <Button small rounded inline disabled={!ready} onClick={() => void decide(true)}>
          {busy === i.id ? <Trans>提交中…</Trans> : <Trans>开具</Trans>}
        </Button>
        <Button small rounded inline outline disabled={!ready} onClick={() => void decide(false)}>
          <Trans>拒绝</Trans>
        </Button>
      </div>
    </li>
  );
}
