import { msg } from '@lingui/core/macro';
import { eq } from 'drizzle-orm';
import { formatYuan } from '../../../domain/money';
import { COUPON_INITIAL_STATE } from '../../../../machines/domain/coupon-transitions';
import { daysAfter } from '../../../domain/time';
import type { Tx } from '../../db/client';
import { couponRewards, memberCoupons, notifications, type CouponRewardRule } from '../../db/schema/index';
import { translate } from '../../i18n';

const rewardTitle = msg`您获得了一张优惠券：{coupon}`;
const rewardBody = msg`感谢您完善个人信息。{coupon}（{amount}）已放入“我的优惠券”，有效期 {days} 天。`;

/**
 * Keeps a promise (decision 105): the coupon the chain promises for `rule`, issued to the member the
 * first time they do it, in the transaction that records the deed, with a notice saying so. Once per
 * member and rule, held by a unique index: a second save, a retry or two saves at once issue nothing
 * more. A rule the chain promises nothing for (no coupon_rewards row) issues nothing.
 */
export async function keepCouponPromise(tx: Tx, accountId: number, rule: CouponRewardRule, now: Date): Promise<number | null> {
  const [reward] = await tx.select().from(couponRewards).where(eq(couponRewards.rule, rule));
  if (!reward) return null;
  const [coupon] = await tx
    .insert(memberCoupons)
    .values({
      accountId,
      name: reward.name,
      nameEn: reward.nameEn,
      offCents: reward.offCents,
      minSpendCents: reward.minSpendCents,
      appliesTo: reward.appliesTo,
      validFrom: now,
      validUntil: daysAfter(now, reward.validityDays),
      state: COUPON_INITIAL_STATE,
      rewardRule: rule,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: memberCoupons.id });
  if (!coupon) return null;
  const amount = formatYuan(reward.offCents);
  const name = { zh: reward.name, en: reward.nameEn ?? reward.name };
  await tx.insert(notifications).values({
    accountId,
    createdAt: now,
    title: translate('zh', rewardTitle, { coupon: name.zh }),
    titleEn: translate('en', rewardTitle, { coupon: name.en }),
    body: translate('zh', rewardBody, { coupon: name.zh, amount, days: reward.validityDays }),
    bodyEn: translate('en', rewardBody, { coupon: name.en, amount, days: reward.validityDays }),
  });
  return coupon.id;
}
