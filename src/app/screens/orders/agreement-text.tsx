import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import type { ReactNode } from 'react';

/**
 * An agreement: a title, numbered clauses, and the way back to where it was opened from (the page
 * before it, or `onClose` when it is shown in a sheet over a form the member is filling).
 */
export function AgreementText(props: { title: ReactNode; clauses: ReactNode[]; id: string; onClose?: () => void }) {
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
        <button
          type="button"
          className="text-primary"
          onClick={() => (props.onClose ? props.onClose() : window.history.back())}
          data-action="back"
        >
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
    <Trans key="unpaid">
      订单创建后请在 15 分钟内完成支付，逾期订单将自动取消，已用的优惠券和余额将退回。同一时间只能有一个未支付的订单。
    </Trans>,
    <Trans key="card">会员卡自首次预约或激活之日起生效；课程在支付成功后发放至“我的课程”。</Trans>,
    <Trans key="pay">支付方式包括微信支付、支付宝和账户余额；支付结果以支付服务的通知或查询为准，同一订单不会重复扣款。</Trans>,
    <Trans key="refund">退款按门店退款政策办理，款项原路退回付款人。</Trans>,
    <Trans key="contact">如有疑问，请联系门店顾问。</Trans>,
  ];
}

/** 《会员服务协议》: what login accepts together with the privacy policy (spec §5 "the user agreement"). */
export function memberServiceClauses(): ReactNode[] {
  return [
    <Trans key="account">会员账号以手机号注册，一个手机号对应一个会员；请妥善保管验证码与密码，账号下的操作视为本人所为。</Trans>,
    <Trans key="cards">会员卡、课程与优惠券的使用、冻结、转让、延期与退款，按购买时的协议与门店政策办理。</Trans>,
    <Trans key="booking">预约课程须选择可用的会员卡并遵守会员须知；开课前规定时间内取消或未到场，可能扣除次数。</Trans>,
    <Trans key="conduct">请遵守门店的场地与课堂规则，尊重老师和其他会员。</Trans>,
    <Trans key="changes">本协议更新时将在应用内提示，继续使用即视为同意更新后的协议。</Trans>,
  ];
}

/** 《隐私政策》: what the app keeps about a member and why. */
export function privacyClauses(): ReactNode[] {
  return [
    <Trans key="collect">我们收集手机号、微信昵称与头像、实名信息和照片，用于登录、预约、核验身份与到店签到。</Trans>,
    <Trans key="use">预约、订单与支付记录仅用于为你提供服务、处理退款和开具发票。</Trans>,
    <Trans key="share">除支付服务与法律要求外，我们不会向第三方提供你的个人信息。</Trans>,
    <Trans key="rights">你可以在“我的”中查看和更正个人信息；注销账号请联系门店。</Trans>,
  ];
}
