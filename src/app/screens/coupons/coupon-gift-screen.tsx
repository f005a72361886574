import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, BlockTitle, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { couponGiftMachine } from '../../../../machines/coupon-gift.machine';
import type { CouponDetail } from '../../../api/coupons';
import { Errors } from '../../../domain/errors';
import { refusalMessage, type RefusalOverrides } from '../../ui/refusal-message';
import { browserApiOrThrow } from '../../api-context';
import { NotFoundState } from '../../ui/not-found-state';
import { couponGiftLoader, couponsPath } from './coupon-data';
import { CouponDiscount, CouponFace, CouponMinSpend } from './coupon-row';
import { maskPhone } from '../../../domain/card-transfer';
import { useConfirmWhile } from '../../ui/confirm';

export const loader = couponGiftLoader;

/** No limit configured: the server answers 999 gifts left. */
const UNLIMITED = 999;

type Field = 'phone' | 'agreed' | 'coupon';

/** The gift form's own words for some refusals: about the friend's phone, or the gifts left. */
const GIFT_REFUSALS: RefusalOverrides = {
  [Errors.noSuchMember.code]: msg`好友手机号还没有注册会员，请核对`,
  [Errors.couponGiftToSelf.code]: msg`好友手机号不能是您自己的手机号`,
  [Errors.couponGiftLimit.code]: msg`优惠券转赠次数已达上限，暂时不能再赠送`,
};

/** What the form says in a state, and the field it is about. */
function feedbackOf(s: SnapshotFrom<typeof couponGiftMachine>): { text: MessageDescriptor; field: Field } | null {
  if (s.matches({ form: 'phoneInvalid' })) return { text: msg`好友手机号不正确，请输入11位手机号`, field: 'phone' };
  if (s.matches({ form: 'notAgreed' })) return { text: msg`请先阅读并同意《优惠券赠送协议》`, field: 'agreed' };
  if (s.matches({ form: 'unreachable' })) return { text: Errors.network.message, field: 'coupon' };
  if (!s.matches({ form: 'refused' })) return null;
  const code = s.context.errorCode;
  const field = code === Errors.noSuchMember.code || code === Errors.couponGiftToSelf.code ? 'phone' : 'coupon';
  return { text: refusalMessage(code, GIFT_REFUSALS), field };
}

/** The gifting terms, readable on the page before "I agree". */
function GiftTerms() {
  return (
    <ol className="list-decimal space-y-1 pl-5 text-sm text-black/70" data-gift-terms>
      <li>
        <Trans>只有未使用且在有效期内的优惠券可以赠送。</Trans>
      </li>
      <li>
        <Trans>受赠人须是本会馆的注册会员，按手机号赠送；不能赠送给自己。</Trans>
      </li>
      <li>
        <Trans>赠送成功后，优惠券立即从您的账户转入好友账户，不能撤回；好友收到的优惠券面额、使用条件和有效期与原券相同。</Trans>
      </li>
      <li>
        <Trans>每位会员在一定期限内的赠送次数有上限，达到上限后暂时不能赠送。</Trans>
      </li>
    </ol>
  );
}

/** Gifted: to whom (masked), the gifts left, and the way back. */
function Gifted(props: { name: string; phone: string; left: number }) {
  const { name, phone, left } = props;
  // a recipient with no name on record is named by their (masked) phone alone
  const who = name ? `${name}（${phone}）` : phone;
  return (
    <Block strong inset className="!my-3 space-y-3 text-center" data-gift-done>
      <p role="status" className="text-lg font-semibold">
        <Trans>已赠送给 {who}</Trans>
      </p>
      {left < UNLIMITED && (
        <p className="text-sm text-black/60" data-gifts-left>
          <Trans>本期还可赠送 {left} 次</Trans>
        </p>
      )}
      <Button large rounded component={Link} {...{ to: couponsPath('all') }}>
        <Trans>返回我的优惠券</Trans>
      </Button>
      <Link to={couponsPath('refunder')} className="inline-block text-primary">
        <Trans>查看已转赠的优惠券</Trans>
      </Link>
    </Block>
  );
}

/**
 * /mine/coupons/all/Donation?id= (requiresLogin; spec §2, §5 "coupon gift needs agreement and a
 * phone", §8; decisions 032, 035): gifting one of my unused coupons to a friend by phone through the
 * coupon-gift machine; the terms are on the page; each refusal is said at its field.
 */
export default function CouponGiftScreen() {
  const page = useLoaderData() as CouponDetail | null;
  if (!page)
    return <NotFoundState message={<Trans>没有找到这张优惠券</Trans>} backTo={couponsPath('all')} backLabel={<Trans>我的优惠券</Trans>} />;
  return <GiftForm page={page} />;
}

function GiftForm(props: { page: CouponDetail }) {
  const { coupon, giftsLeft } = props.page;
  const { i18n } = useLingui();
  const logic = useMemo(
    () =>
      couponGiftMachine.provide({
        actors: {
          lookupMember: fromPromise(({ input }) => browserApiOrThrow().cardTransfers.memberByPhone(input.phone)),
          giftCoupon: fromPromise(({ input: { idempotencyKey, ...body } }) => browserApiOrThrow().coupons.gift(body, idempotencyKey)),
        },
      }),
    [],
  );
  const flow = useActorRef(logic, { input: { couponId: coupon.id } });
  const c = useSelector(flow, (s) => s.context);
  const submitting = useSelector(flow, (s) => s.matches('submitting'));
  const lookingUp = useSelector(flow, (s) => s.matches('lookingUp'));
  const confirming = useSelector(flow, (s) => s.matches('confirming'));
  const busy = submitting || lookingUp || confirming;
  const who = c.recipientName ? `${c.recipientName}（${maskPhone(c.phone.trim())}）` : maskPhone(c.phone.trim());
  useConfirmWhile(
    confirming,
    {
      title: <Trans>赠送优惠券</Trans>,
      message: (
        <div data-gift-confirm>
          <p>
            <Trans>赠送给 {who}？赠送后不能撤回</Trans>
          </p>
          <p className="mt-2">
            {coupon.name} · <CouponDiscount coupon={coupon} /> <CouponMinSpend coupon={coupon} />
          </p>
        </div>
      ),
      confirmText: <Trans>确定赠送</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => flow.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );
  const gifted = useSelector(flow, (s) => s.matches('gifted'));
  const feedback = useSelector(flow, feedbackOf);

  const face = (
    <div className="mx-4 my-3 rounded-xl bg-white p-3" data-gift-coupon={coupon.id}>
      <CouponFace coupon={coupon} />
    </div>
  );
  if (gifted && c.gift)
    return (
      <div className="pb-6" data-coupon-gift>
        {face}
        <Gifted name={c.gift.recipientName} phone={c.gift.recipientPhone} left={c.gift.giftsLeft} />
      </div>
    );
  if (coupon.state !== 'unused') {
    return (
      <div className="pb-6" data-coupon-gift>
        {face}
        <Block className="text-center">
          <p role="alert" className="text-rose-600" data-gift-unavailable>
            {i18n._(Errors.couponNotGiftable.message)}
          </p>
          <Link to={couponsPath('all')} className="mt-4 inline-block text-primary">
            <Trans>返回我的优惠券</Trans>
          </Link>
        </Block>
      </div>
    );
  }
  const left = giftsLeft;
  const said = feedback ? i18n._(feedback.text) : undefined;
  return (
    <form
      noValidate
      className="pb-6"
      data-coupon-gift
      onSubmit={(e) => {
        e.preventDefault();
        flow.send({ type: 'gift.submit' });
      }}
    >
      {face}
      {left < UNLIMITED && (
        <p className="mx-4 text-sm text-black/60" data-gifts-left>
          <Trans>本期还可赠送 {left} 次</Trans>
        </p>
      )}
      <List strong inset className="!my-3">
        <LabelledInput
          label={<Trans>好友手机号</Trans>}
          type="tel"
          name="phone"
          inputMode="numeric"
          autoComplete="off"
          placeholder={i18n._(msg`请输入好友注册会员的手机号`)}
          value={c.phone}
          disabled={busy}
          error={
            said && feedback!.field === 'phone' ? (
              <span role="alert" data-error-field="phone">
                {said}
              </span>
            ) : undefined
          }
          onChange={(e: { target: { value: string } }) => flow.send({ type: 'phone.change', phone: e.target.value })}
        />
      </List>
      <BlockTitle>
        <Trans>优惠券赠送协议</Trans>
      </BlockTitle>
      <Block strong inset className="!my-2">
        <GiftTerms />
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="agreed"
            className="h-4 w-4 accent-primary"
            checked={c.agreed}
            disabled={busy}
            onChange={(e) => flow.send({ type: 'terms.change', agreed: e.target.checked })}
          />
          <Trans>我已阅读并同意《优惠券赠送协议》</Trans>
        </label>
      </Block>
      {said && feedback!.field !== 'phone' && (
        <p role="alert" className="min-h-5 px-4 text-sm text-red-600" data-error-field={feedback!.field}>
          {said}
        </p>
      )}
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={busy} data-action="gift-submit">
          {submitting ? <Trans>正在赠送…</Trans> : lookingUp ? <Trans>正在查询…</Trans> : <Trans>赠送</Trans>}
        </Button>
      </Block>
    </form>
  );
}
