import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle } from 'konsta/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** One question: a native <details>, so it opens before any script has loaded. */
function Qa(props: { q: ReactNode; children: ReactNode }) {
  return (
    <details className="group border-b border-black/5 px-4 py-3 last:border-b-0">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 font-medium">
        <span>{props.q}</span>
        <span aria-hidden className="text-black/60 transition-transform group-open:rotate-90">
          ›
        </span>
      </summary>
      <p className="mt-2 text-sm leading-relaxed text-black/65">{props.children}</p>
    </details>
  );
}

/** /qa: frequently asked questions. */
export default function QaScreen() {
  return (
    <>
      <BlockTitle>
        <Trans>约课</Trans>
      </BlockTitle>
      <Block strong inset className="!p-0">
        <Qa q={<Trans>如何预约课程？</Trans>}>
          <Trans>
            登录后点击底部“约课”，选择门店与日期，挑选课程并选择会员卡即可预约。会员等级为1的会员可提前1天预约，其他会员可提前3天预约。
          </Trans>
        </Qa>
        <Qa q={<Trans>课程满员了怎么办？</Trans>}>
          <Trans>满员的课程可以排队候补，有人取消时按排队顺序自动补位，并通知您。</Trans>
        </Qa>
        <Qa q={<Trans>可以取消预约吗？</Trans>}>
          <Trans>课程开始前可以在“我的课程”中取消预约或取消排队；课程开始后无法取消。</Trans>
        </Qa>
      </Block>
      <BlockTitle>
        <Trans>会员卡</Trans>
      </BlockTitle>
      <Block strong inset className="!p-0">
        <Qa q={<Trans>会员卡什么时候开始生效？</Trans>}>
          <Trans>未激活的会员卡在第一次成功预约课程时自动激活，有效期从激活当天开始计算。</Trans>
        </Qa>
        <Qa q={<Trans>会员卡可以停卡或转让吗？</Trans>}>
          <Trans>可以在“会员卡”中申请停卡；每张卡只能转让一次，转让需对方实名信息并经门店审核。</Trans>
        </Qa>
        <Qa q={<Trans>登录后价格为什么变了？</Trans>}>
          <Trans>未登录时显示门市价，登录后显示会员价与可用优惠。</Trans>
        </Qa>
      </Block>
      <BlockTitle>
        <Trans>账户</Trans>
      </BlockTitle>
      <Block strong inset className="!p-0">
        <Qa q={<Trans>忘记密码怎么办？</Trans>}>
          <Trans>在登录页点击“忘记密码”，通过手机验证码重新设置密码即可。</Trans>
        </Qa>
        <Qa q={<Trans>还有其他问题？</Trans>}>
          <Trans>请联系您常去的门店，门店电话可在门店详情中查看。</Trans>{' '}
          <Link to="/club" className="text-primary">
            <Trans>查看门店</Trans>
          </Link>
        </Qa>
      </Block>
    </>
  );
}
