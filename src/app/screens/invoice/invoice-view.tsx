import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, BlockTitle, Button } from 'konsta/react';
import { useMemo, useRef } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { invoiceRequestMachine, type InvoiceForm } from '../../../../machines/invoice-request.machine';
import type { InvoiceableOrder, MyInvoice } from '../../../api/invoices';
import { Errors } from '../../../domain/errors';
import { INVOICE_ADDRESS_MAX, INVOICE_BANK_NAME_MAX, INVOICE_TITLE_MAX } from '../../../domain/invoice';
import { newIntentKey } from '../../../domain/intent-key';
import { formatYuan } from '../../../domain/money';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { InvoiceList } from './invoice-list';

const FIELDS: Array<{ field: keyof InvoiceForm; label: MessageDescriptor; max: number; required?: true; mode?: 'tel' | 'numeric' }> = [
  { field: 'title', label: msg`发票抬头`, max: INVOICE_TITLE_MAX, required: true },
  { field: 'taxNumber', label: msg`纳税人识别号`, max: 40, required: true },
  { field: 'address', label: msg`地址`, max: INVOICE_ADDRESS_MAX, required: true },
  { field: 'phone', label: msg`电话（选填）`, max: 30, mode: 'tel' },
  { field: 'bankName', label: msg`开户银行（选填）`, max: INVOICE_BANK_NAME_MAX },
  { field: 'bankAccount', label: msg`银行账号（选填）`, max: 40, mode: 'numeric' },
];

/**
 * The invoice request driven by the invoice-request machine (decision 044): tick orders, fill the
 * form (each wrong field says what is wrong), submit once per intent (Idempotency-Key; a retry is the
 * same request), and my requests below.
 */
export function InvoiceView({ orders, invoices }: { orders: InvoiceableOrder[]; invoices: MyInvoice[] }) {
  const { i18n } = useLingui();
  const key = useRef('');
  const logic = useMemo(
    () =>
      invoiceRequestMachine.provide({
        actors: {
          request: fromPromise(({ input }) =>
            browserApiOrThrow().invoices.request({ ...input.form, orderIds: input.orderIds }, key.current),
          ),
        },
      }),
    [],
  );
  const actor = useActorRef(logic, { input: { orders, invoices } });
  const state = useSelector(actor, (s) => s);
  const c = state.context;
  const sending = state.matches('submitting');
  const refused = state.matches({ editing: 'refused' });
  const fieldError = (field: keyof InvoiceForm): MessageDescriptor | null => {
    if (state.matches({ editing: 'invalid' })) {
      const p = c.problems.find((x) => x.field === field);
      return p ? Errors[p.problem].message : null;
    }
    return refused && c.errorField === field ? refusalMessage(c.errorCode) : null;
  };
  const feedback = state.matches({ editing: 'noOrder' })
    ? msg`请至少选择一个订单`
    : state.matches({ editing: 'invalid' })
      ? msg`请按提示修改`
      : refused
        ? refusalMessage(c.errorCode)
        : state.matches({ editing: 'sent' })
          ? msg`已提交，门店开具后可在下方下载发票`
          : state.matches('submitUnreachable')
            ? msg`网络无法连接`
            : null;

  return (
    <article className="pb-6">
      <BlockTitle>
        <Trans>选择要开发票的订单</Trans>
      </BlockTitle>
      {c.orders.length === 0 ? (
        <p className="p-4 text-center text-sm text-black/60" data-invoice-no-orders>
          <Trans>没有可开发票的已支付订单</Trans>
        </p>
      ) : (
        <ul className="mx-4 divide-y divide-black/5 rounded-xl bg-white" data-invoice-orders>
          {c.orders.map((o) => (
            <li key={o.id}>
              <label className="flex min-h-11 items-center gap-3 p-3 text-sm">
                <input
                  type="checkbox"
                  data-invoice-order={o.id}
                  checked={c.chosen.includes(o.id)}
                  disabled={sending}
                  onChange={() => actor.send({ type: 'order.toggle', orderId: o.id })}
                />
                <span className="flex-1">
                  {o.goodsName}
                  <span className="block text-xs text-black/60">{o.orderNo}</span>
                </span>
                <span>{formatYuan(o.amountCents)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <form
        className="space-y-3 p-4"
        noValidate
        data-invoice-form
        onSubmit={(e) => {
          e.preventDefault();
          key.current = newIntentKey();
          actor.send({ type: 'invoice.submit' });
        }}
      >
        {FIELDS.map(({ field, label, max, required, mode }) => {
          const error = fieldError(field);
          return (
            <label key={field} className="block text-sm">
              <span className="mb-1 block font-medium">
                {i18n._(label)}
                {required ? <span className="text-rose-600"> *</span> : null}
              </span>
              <input
                name={field}
                className={`w-full rounded-lg border p-2 ${error ? 'border-rose-500' : 'border-black/10'}`}
                maxLength={max}
                inputMode={mode}
                value={c.form[field]}
                disabled={sending}
                aria-invalid={error ? true : undefined}
                onChange={(e) => actor.send({ type: 'field.change', field, value: e.target.value })}
              />
              <span className="block min-h-4 text-xs text-rose-600" data-field-error={field}>
                {error ? i18n._(error) : ''}
              </span>
            </label>
          );
        })}
        <p
          role="alert"
          className={`min-h-5 text-sm ${state.matches({ editing: 'sent' }) ? 'text-emerald-700' : 'text-rose-600'}`}
          data-invoice-feedback
        >
          {feedback ? i18n._(feedback) : ''}
        </p>
        {state.matches('submitUnreachable') ? (
          <Button large rounded type="button" onClick={() => actor.send({ type: 'network.retry' })}>
            <Trans>重试</Trans>
          </Button>
        ) : (
          <Button large rounded type="submit" disabled={sending}>
            {sending ? <Trans>提交中…</Trans> : <Trans>提交申请</Trans>}
          </Button>
        )}
        {/* sent: staff issue it later and the request waits in the list below; the way back to where it was asked from */}
        {state.hasTag('end') ? (
          <Button large rounded outline component={Link} {...{ to: '/mine' }} data-action="to-mine">
            <Trans>返回我的</Trans>
          </Button>
        ) : null}
      </form>
      <InvoiceList invoices={c.invoices} />
      <Block className="text-xs text-black/60">
        <Trans>发票由门店开具；订单退款后，其发票作废。</Trans>
      </Block>
    </article>
  );
}
