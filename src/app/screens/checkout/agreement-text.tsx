import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import type { ReactNode } from 'react';

/** An agreement page: a title, numbered clauses, and the way back to the purchase it was opened from. */
export function AgreementText(props: { title: ReactNode; clauses: ReactNode[]; id: string }) {
  return (
    <article className="pb-8" data-agreement={props.id}>
      <Block className="!my-4">
        <h1 className="text-lg font-semibold">{props.title}</h1>
        <ol className="mt-4 list-decimal space-y-3 pl-5 text-sm leading-6 text-black/80">
          {props.clauses.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ol>
      </Block>
      <Block className="text-center">
        <button type="button" className="text-primary" onClick={() => window.history.back()} data-action="back">
          <Trans>返回</Trans>
        </button>
      </Block>
    </article>
  );
}

/** The clauses every purchase agreement shares. */
export function commonClauses(): ReactNode[] {
  return [
    <Trans key="price">商品价格以支付页显示的服务器计价为准：会员价、优惠券抵扣、余额抵扣与应付金额均以分为单位计算，四舍五入至分。</Trans>,
    <Trans key="unpaid">订单创建后请在 15 分钟内完成支付，逾期订单将自动取消，已用的优惠券和余额将退回。同一时间只能有一个未支付的订单。</Trans>,
    <Trans key="card">会员卡自首次预约或激活之日起生效；课程在支付成功后发放至“我的课程”。</Trans>,
    <Trans key="pay">支付方式包括微信支付、支付宝和账户余额；支付结果以支付服务的通知或查询为准，同一订单不会重复扣款。</Trans>,
    <Trans key="refund">退款按门店退款政策办理，款项原路退回付款人。</Trans>,
    <Trans key="contact">如有疑问，请联系门店顾问。</Trans>,
  ];
}
