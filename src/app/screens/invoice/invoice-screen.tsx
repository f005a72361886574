import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { InvoiceableOrder, MyInvoice } from '../../../api/invoices';
import { apiFrom } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { InvoiceView } from './invoice-view';

interface InvoiceData {
  /** null: the server could not be reached */
  orders: InvoiceableOrder[] | null;
  invoices: MyInvoice[] | null;
}

export async function loader({ context }: LoaderFunctionArgs): Promise<InvoiceData> {
  const api = apiFrom(context);
  try {
    const [orders, invoices] = await Promise.all([api.invoices.orders(), api.invoices.mine()]);
    return { orders: orders.code === 200 ? orders.data : null, invoices: invoices.code === 200 ? invoices.data : null };
  } catch {
    return { orders: null, invoices: null };
  }
}

/**
 * /invoice (requiresLogin; spec §2 "Other", §3 invoice, §5; decision 044): ask for an invoice over some
 * of my paid orders not yet invoiced, and my requests with their states: the PDF of an issued one to
 * download, the reason of a refused one.
 */
export default function InvoiceScreen() {
  const { orders, invoices } = useLoaderData() as InvoiceData;
  const revalidate = useStableRevalidate();
  if (orders === null || invoices === null)
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
  return <InvoiceView orders={orders} invoices={invoices} />;
}
