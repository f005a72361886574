import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { BlockTitle } from 'konsta/react';
import type { MyInvoice } from '../../../api/invoices';
import type { INVOICE_STATE_VALUES } from '../../../domain/invoice';
import { formatYuan } from '../../../domain/money';
import { shanghaiFormat } from '../../../domain/time';

const STATE_LABEL: Record<(typeof INVOICE_STATE_VALUES)[number], MessageDescriptor> = {
  requested: msg`待开具`,
  issued: msg`已开具`,
  refused: msg`未通过`,
  voided: msg`已作废（订单已退款）`,
};

/** My invoice requests, newest first: state, number, the reason of a refused one, the PDF of an issued one. */
export function InvoiceList({ invoices }: { invoices: MyInvoice[] }) {
  const { i18n } = useLingui();
  return (
    <section data-invoice-list>
      <BlockTitle>
        <Trans>我的发票申请</Trans>
      </BlockTitle>
      {invoices.length === 0 ? (
        <p className="p-4 text-center text-sm text-black/60">
          <Trans>还没有发票申请</Trans>
        </p>
      ) : (
        <ul className="mx-4 divide-y divide-black/5 rounded-xl bg-white">
          {invoices.map((i) => (
            <li key={i.id} className="space-y-1 p-3 text-sm" data-invoice={i.id} data-invoice-state={i.state}>
              <p className="flex justify-between gap-2">
                <span className="font-medium">{i.title}</span>
                <span data-invoice-state-label>{i18n._(STATE_LABEL[i.state])}</span>
              </p>
              <p className="text-xs text-black/60">
                {formatYuan(i.totalCents)} · {i.orders.map((o) => o.goodsName).join('、')} ·{' '}
                {shanghaiFormat(new Date(i.createdAt), 'YYYY-MM-DD')}
              </p>
              {i.number ? (
                <p className="text-xs" data-invoice-number>
                  <Trans>发票号码 {i.number}</Trans>
                </p>
              ) : null}
              {i.reason ? (
                <p className="text-rose-600" data-invoice-reason>
                  <Trans>未通过原因：{i.reason}</Trans>
                </p>
              ) : null}
              {i.hasPdf ? (
                <a
                  className="inline-flex min-h-11 items-center text-sky-700"
                  href={`/api/customers/invoices/${i.id}/pdf`}
                  download
                  data-invoice-pdf
                >
                  <Trans>下载 PDF 发票</Trans>
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
