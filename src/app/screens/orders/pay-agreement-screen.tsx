import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button, Checkbox } from 'konsta/react';
import { useEffect, useRef } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { PayMethodUnavailable } from '../../../api/orders';
import { checkoutMethods, type PayMethod } from '../../../domain/orders';
import { Errors } from '../../../domain/errors';
import { formatYuan } from '../../../domain/money';
import { apiFrom } from '../../api-context';
import { sessionFrom } from '../../session/request-session';
import { dataOr } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { PhasePicker, TeacherPicker } from '../catalog/courses/choice-picker';
import { refusalMessage, refusalText } from '../../ui/refusal-message';
import { myOrdersPath } from './my-orders-data';
import { orderPath, payAgreementQuery, type PayAgreementQuery } from './checkout-paths';
import { paymentOf, useCheckout, usePaymentPages, type CheckoutActor } from './checkout-store';
import { CouponChoice } from './coupon-choice';
import { MethodChoice } from './method-choice';
import { MoneyLines } from './money-lines';
import { PaymentProgress } from './payment-progress';

export interface PayAgreementData {
  query: PayAgreementQuery | null;
  /** the ways offered as choices here: the providers (the one paid with last first), or the balance alone (decision 038) */
  methods: PayMethod[];
  /** offered but not usable by this member now, with the reason (shown disabled) */
  unavailable: PayMethodUnavailable[];
  standIn: boolean;
  /** goods sold in the Singles Day sale take its own agreement (/agreement/CommonAgreement_11) */
  singlesDay: boolean;
  signedIn: boolean;
}

/** The entry point's query, the server's payment methods, and which agreement applies. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const query = payAgreementQuery(new URL(request.url).searchParams);
  const signedIn = !!sessionFrom(context).token;
  if (!query)
    return data<PayAgreementData>({ query, methods: [], unavailable: [], standIn: false, singlesDay: false, signedIn }, { status: 404 });
  const api = apiFrom(context);
  const [pay, sale] = await Promise.all([
    dataOr(api.orders.payMethods(), { methods: ['balance' as const], standIn: false, unavailable: [] }),
    dataOr(api.flashSale.activity(), null),
  ]);
  return data<PayAgreementData>({
    query,
    methods: checkoutMethods(pay.methods),
    unavailable: pay.unavailable ?? [],
    standIn: pay.standIn,
    singlesDay: sale?.goodsId === query.goodsId,
    signedIn,
  });
}

/**
 * /agreement/payagreement?id=&phaseId=&teacherId= — the checkout's entry point (every Buy button
 * leads here): the goods, the phase or teacher when missing, coupon and balance, the server-priced
 * summary, the purchase agreement, the payment method and Pay, all through the checkout machine.
 * Decision 038: the balance is one switch (part, then the rest by a provider; or the whole), the
 * providers are the choices (the one paid with last preselected), and the pay button says what a tap
 * does: until the agreement is ticked it asks for the tick (and a tap points at it), then it pays.
 */
export default function PayAgreementScreen() {
  const d = useLoaderData() as PayAgreementData;
  if (!d.query)
    return <NotFoundState message={<Trans>没有找到要购买的商品</Trans>} backTo="/vipcard" backLabel={<Trans>查看会员卡</Trans>} />;
  return <Checkout key={`${d.query.goodsId}:${d.query.phaseId ?? ''}:${d.query.teacherId ?? ''}`} d={d} query={d.query} />;
}

function Skeleton() {
  return (
    <div aria-busy="true" data-skeleton className="mx-4 my-4 space-y-3">
      {[72, 240, 120].map((h) => (
        <div key={h} style={{ height: h }} className="animate-pulse rounded-xl bg-black/[.07]" />
      ))}
    </div>
  );
}

function Retry(props: { actor: CheckoutActor; back?: boolean }) {
  const { i18n } = useLingui();
  return (
    <Block className="text-center" role="alert">
      <p className="mb-4">{i18n._(Errors.network.message)}</p>
      <Button large rounded onClick={() => props.actor.send({ type: 'checkout.retry' })} data-action="retry">
        <Trans>重试</Trans>
      </Button>
    </Block>
  );
}

function Checkout(props: { d: PayAgreementData; query: PayAgreementQuery }) {
  const { i18n } = useLingui();
  const { d } = props;
  const actor = useCheckout({ signedIn: d.signedIn, methods: d.methods, ...props.query }, d.standIn);
  const retryPage = useSelector(actor, (s) => s.hasTag('retryPage'));
  const editable = useSelector(actor, (s) => s.hasTag('editing'));
  const refused = useSelector(actor, (s) => s.hasTag('refused'));
  const checkoutBusy = useSelector(actor, (s) => s.hasTag('busy'));
  const reviewing = useSelector(actor, (s) => s.matches('reviewing'));
  const unavailable = useSelector(actor, (s) => s.matches('goodsUnavailable'));
  const choosingOption = useSelector(actor, (s) => s.matches('choosingOption'));
  const pricingRefused = useSelector(actor, (s) => s.matches('pricingRefused'));
  const creatingOrder = useSelector(actor, (s) => s.matches('creatingOrder'));
  const orderUnreachable = useSelector(actor, (s) => s.matches('orderUnreachable'));
  const agreementMissing = useSelector(actor, (s) => s.matches({ reviewing: 'agreementMissing' }));
  const unpaidOrderExists = useSelector(actor, (s) => s.matches({ reviewing: 'unpaidOrderExists' }));
  // once the order is made, its payment (the pay-order chart) says where things stand
  const payment = useSelector(actor, paymentOf);
  usePaymentPages(payment);
  const paymentCode = useSelector(payment, (s) => s?.context.errorCode);
  const paymentPaying = useSelector(payment, (s) => s?.matches('paying') ?? false);
  const paymentRefused = useSelector(payment, (s) => s?.matches('paymentRefused') ?? false);
  const busy = payment ? paymentPaying : checkoutBusy;
  const goods = useSelector(actor, (s) => s.context.goods);
  const quote = useSelector(actor, (s) => s.context.quote);
  const c = useSelector(actor, (s) => s.context);
  // a tap on pay before the agreement is ticked points at the tick
  const agreementRef = useRef<HTMLLabelElement>(null);
  useEffect(() => {
    if (!agreementMissing) return;
    const tick = agreementRef.current?.querySelector<HTMLInputElement>('input[name="agreePurchase"]');
    tick?.focus();
    tick?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [agreementMissing]);

  if (retryPage) return <Retry actor={actor} />;
  if (unavailable) {
    const why = refusalText(i18n, c.errorCode, { serverMessage: c.errorMessage });
    return <NotFoundState message={why} backTo="/vipcard" backLabel={<Trans>查看会员卡</Trans>} />;
  }
  if (!goods) return <Skeleton />;

  const header = (
    <Block strong inset className="!my-4" data-checkout-goods={goods.id}>
      <h1 className="text-lg font-semibold">{goods.name}</h1>
      {quote && <p className="mt-1 text-sm text-black/60 tabular-nums">{formatYuan(quote.priceCents)}</p>}
    </Block>
  );
  const picker = goods.phases?.length ? (
    <PhasePicker phases={goods.phases} chosen={c.phaseId} member onChoose={(id) => actor.send({ type: 'option.choose', phaseId: id })} />
  ) : goods.kind === 'private' && goods.teachers?.length ? (
    <TeacherPicker teachers={goods.teachers} chosen={c.teacherId} onChoose={(id) => actor.send({ type: 'option.choose', teacherId: id })} />
  ) : null;

  if (choosingOption) {
    return (
      <div className="pb-6">
        {header}
        {picker}
      </div>
    );
  }
  if (!quote) {
    if (pricingRefused) {
      return (
        <div className="pb-6">
          {header}
          {picker}
          <p role="alert" className="mx-4 my-4 text-sm text-rose-600" data-checkout-feedback>
            {i18n._(refusalMessage(c.errorCode))}
          </p>
        </div>
      );
    }
    return <Skeleton />;
  }

  const feedback = agreementMissing ? (
    <Trans>请先阅读并同意购买协议</Trans>
  ) : paymentRefused ? (
    i18n._(refusalMessage(paymentCode))
  ) : refused ? (
    i18n._(refusalMessage(c.errorCode))
  ) : orderUnreachable ? (
    i18n._(Errors.network.message)
  ) : null;
  const agreement = d.singlesDay ? '/agreement/CommonAgreement_11' : '/agreement/CommonAgreement';

  return (
    <form
      noValidate
      className="pb-8"
      data-checkout-reviewing={reviewing ? '' : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: orderUnreachable ? 'checkout.retry' : 'checkout.submit' });
      }}
    >
      {header}
      {picker}
      <CouponChoice
        coupons={quote.coupons}
        chosen={c.couponId}
        disabled={!editable}
        onChoose={(id) => actor.send({ type: 'coupon.choose', couponId: id })}
      />
      <label className="mx-4 my-4 flex items-center gap-3 rounded-xl bg-white p-3">
        <input
          type="checkbox"
          role="switch"
          data-balance-toggle
          checked={c.useBalance}
          disabled={!editable || (quote.balanceCents === 0 && !c.useBalance)}
          onChange={() => actor.send({ type: 'balance.toggle' })}
          // a switch, drawn as one: the native box at the touch-target size read as an empty square; the
          // label around it is what a thumb taps (at least 44 px), so the input itself may be smaller
          className="relative order-last h-7 min-h-0 w-12 min-w-0 shrink-0 cursor-pointer appearance-none rounded-full bg-black/20 transition-colors before:absolute before:top-0.5 before:left-0.5 before:h-6 before:w-6 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-primary checked:before:translate-x-5 disabled:cursor-default disabled:opacity-40"
        />
        <span className="flex-1">
          <span className="block">
            <Trans>用余额抵扣</Trans>
          </span>
          <span className="block text-xs text-black/60 tabular-nums" data-balance-effect>
            {!c.useBalance ? (
              <Trans>先用余额抵扣，其余再选择支付方式</Trans>
            ) : quote.amountToPayCents === 0 ? (
              <Trans>余额支付全部 {formatYuan(quote.balanceUsedCents)}</Trans>
            ) : (
              <Trans>
                余额抵扣 {formatYuan(quote.balanceUsedCents)}，其余 {formatYuan(quote.amountToPayCents)} 选择支付方式
              </Trans>
            )}
          </span>
        </span>
        <span className="text-sm text-black/60 tabular-nums" data-balance={quote.balanceCents}>
          <Trans>可用 {formatYuan(quote.balanceCents)}</Trans>
        </span>
      </label>
      <MoneyLines facts={quote} />
      {quote.amountToPayCents > 0 && (
        <MethodChoice
          methods={d.methods}
          unavailable={d.unavailable}
          chosen={c.method}
          onChoose={(m) => actor.send({ type: 'method.choose', method: m })}
        />
      )}
      <Block className="!my-4">
        <div
          className={`flex flex-wrap items-center gap-2 rounded-lg text-sm text-black/70 ${agreementMissing ? 'ring-2 ring-rose-600' : ''}`}
          data-agreement-tick={c.agreed ? 'ticked' : 'unticked'}
        >
          <label ref={agreementRef} className="flex items-center gap-2">
            <Checkbox
              component="div"
              name="agreePurchase"
              checked={c.agreed}
              onChange={() => editable && actor.send({ type: 'agreement.toggle' })}
            />
            <span>
              <Trans>我已阅读并同意</Trans>
            </span>
          </label>
          <Link to={agreement} className="text-primary" data-agreement-link>
            <Trans>《购买协议》</Trans>
          </Link>
        </div>
      </Block>
      <p role="alert" className="mx-4 min-h-5 text-sm text-rose-600" data-checkout-feedback>
        {feedback}
        {/* the order found is linked; when it could not be found, the list's to-pay tab holds it */}
        {unpaidOrderExists && (
          <Link
            to={c.unpaidOrderNo ? orderPath(c.unpaidOrderNo) : myOrdersPath('to_pay')}
            className="ml-2 text-primary"
            data-unpaid-order={c.unpaidOrderNo ?? ''}
          >
            <Trans>查看未支付的订单</Trans>
          </Link>
        )}
        {paymentRefused && c.order && (
          <Link to={orderPath(c.order.orderNo)} className="ml-2 text-primary">
            <Trans>查看订单</Trans>
          </Link>
        )}
      </p>
      <PaymentProgress actor={payment} creatingOrder={creatingOrder} />
      <Block className="!my-4">
        {/* unticked: it asks for the tick (aria-disabled, still tappable so a tap can point at the tick); ticked: it pays */}
        <Button
          large
          rounded
          outline={!c.agreed && !busy}
          type="submit"
          disabled={busy || paymentRefused}
          aria-disabled={!c.agreed ? 'true' : undefined}
          data-action="pay"
          data-pay-ready={c.agreed ? 'true' : 'false'}
        >
          {busy ? (
            <Trans>处理中…</Trans>
          ) : orderUnreachable ? (
            <Trans>重试</Trans>
          ) : !c.agreed ? (
            <Trans>请先同意《购买协议》</Trans>
          ) : quote.amountToPayCents === 0 && quote.balanceUsedCents > 0 ? (
            <Trans>用余额支付 {formatYuan(quote.balanceUsedCents)}</Trans>
          ) : (
            <Trans>支付 {formatYuan(quote.amountToPayCents)}</Trans>
          )}
        </Button>
      </Block>
    </form>
  );
}
