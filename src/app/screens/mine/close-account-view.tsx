import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, BlockTitle, Button } from 'konsta/react';
import { useMemo, useRef } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { accountClosingRequestMachine } from '../../../../machines/account-closing-request.machine';
import type { MyAccountClosing } from '../../../api/account-closing';
import { Errors } from '../../../domain/errors';
import { newIntentKey } from '../../../domain/intent-key';
import { shanghaiFormat } from '../../../domain/time';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { myOrdersPath } from '../orders/my-orders-data';

const ERASED = [
  msg`姓名、昵称、头像和签到照片`,
  msg`实名信息和身份证号`,
  msg`手机号和密码：之后无法再登录这个账号`,
  msg`微信绑定、消息通知和浏览记录`,
];
const KEPT = [
  msg`订单、支付和余额流水（财务记录，依法保存）`,
  msg`发票（税务记录，依法保存）`,
  msg`会员卡、预约、转让和退款记录（不再关联您的身份）`,
  msg`员工操作记录（审计记录）`,
];

/** The closing flow driven by the close-account machine (decision 057): one intent per ask and per withdraw (Idempotency-Key; a retry is the same request). */
export function CloseAccountView({ request }: { request: MyAccountClosing | null }) {
  const { i18n } = useLingui();
  const key = useRef('');
  const logic = useMemo(
    () =>
      accountClosingRequestMachine.provide({
        actors: {
          ask: fromPromise(() => browserApiOrThrow().accountClosing.ask(null, key.current)),
          withdraw: fromPromise(() => browserApiOrThrow().accountClosing.withdraw(key.current)),
        },
      }),
    [],
  );
  const actor = useActorRef(logic, { input: { request } });
  const state = useSelector(actor, (s) => s);
  const c = state.context;
  const intent = (type: 'closing.confirm' | 'closing.withdraw') => {
    key.current = newIntentKey();
    actor.send({ type });
  };
  const feedback = state.matches({ idle: 'blocked' })
    ? refusalMessage(c.errorCode)
    : state.matches({ idle: 'withdrawn' })
      ? msg`已撤回注销申请，您的账号保持不变`
      : state.matches({ pending: 'withdrawRefused' })
        ? refusalMessage(c.errorCode)
        : state.matches('askUnreachable') || state.matches('withdrawUnreachable')
          ? msg`网络无法连接`
          : null;
  const pendingView = state.matches('pending') || state.matches('withdrawing') || state.matches('withdrawUnreachable');

  return (
    <article className="pb-6" data-close-account>
      <BlockTitle>
        <Trans>注销后将删除</Trans>
      </BlockTitle>
      <ul className="mx-4 list-disc space-y-1 rounded-xl bg-white p-4 pl-8 text-sm" data-close-erased>
        {ERASED.map((m) => (
          <li key={m.id}>{i18n._(m)}</li>
        ))}
      </ul>
      <BlockTitle>
        <Trans>依法保留</Trans>
      </BlockTitle>
      <ul className="mx-4 list-disc space-y-1 rounded-xl bg-white p-4 pl-8 text-sm" data-close-kept>
        {KEPT.map((m) => (
          <li key={m.id}>{i18n._(m)}</li>
        ))}
      </ul>
      <Block className="space-y-3 text-sm">
        <p className="text-black/60">
          <Trans>注销前请先用完、转让或退掉会员卡和课程，余额为零，没有待支付的订单和未上的预约。</Trans>
        </p>
        {pendingView && c.request ? (
          <div data-close-pending>
            <p className="font-medium" data-close-state>
              <Trans>注销申请审核中</Trans>
            </p>
            <p className="text-black/60">
              <Trans>提交于 {shanghaiFormat(new Date(c.request.createdAt), 'YYYY-MM-DD HH:mm')}，门店确认后账号即注销。</Trans>
            </p>
          </div>
        ) : null}
        {state.matches('refusedByStaff') && c.request ? (
          <div data-close-refused>
            <p className="font-medium" data-close-state>
              <Trans>注销申请未通过</Trans>
            </p>
            <p data-close-reason>
              <Trans>原因：{c.request.reason}</Trans>
            </p>
          </div>
        ) : null}
        {state.matches('confirming') ? (
          <div className="rounded-xl bg-rose-50 p-3" role="alertdialog" aria-label={i18n._(msg`确认注销`)} data-close-confirm>
            <p>
              <Trans>门店确认后，您将无法再登录这个账号，删除的信息无法恢复。确定申请注销吗？</Trans>
            </p>
            <div className="mt-2 flex gap-2">
              <Button small rounded inline className="!bg-rose-600" onClick={() => intent('closing.confirm')}>
                <Trans>确定注销</Trans>
              </Button>
              <Button small rounded inline outline onClick={() => actor.send({ type: 'closing.cancel' })}>
                <Trans>再想想</Trans>
              </Button>
            </div>
          </div>
        ) : null}
        {feedback ? (
          <p role="alert" className="text-rose-600" data-close-feedback>
            {i18n._(feedback)}
          </p>
        ) : null}
        {/* an order still to pay or being refunded: the member deals with it from the order list */}
        {state.matches({ idle: 'blocked' }) && c.errorCode === Errors.closingOpenOrder.code ? (
          <Link to={myOrdersPath()} className="inline-flex min-h-11 items-center text-primary" data-close-orders>
            <Trans>查看我的订单</Trans>
          </Link>
        ) : null}
        {state.matches('idle') || state.matches('refusedByStaff') || state.matches('asking') ? (
          <Button
            large
            rounded
            outline
            disabled={state.matches('asking')}
            onClick={() => actor.send({ type: 'closing.ask' })}
            data-close-ask
          >
            {state.matches('asking') ? <Trans>提交中…</Trans> : <Trans>申请注销账号</Trans>}
          </Button>
        ) : null}
        {pendingView ? (
          <Button
            large
            rounded
            outline
            disabled={state.matches('withdrawing')}
            onClick={() => intent('closing.withdraw')}
            data-close-withdraw
          >
            {state.matches('withdrawing') ? <Trans>提交中…</Trans> : <Trans>撤回注销申请</Trans>}
          </Button>
        ) : null}
        {state.matches('askUnreachable') || state.matches('withdrawUnreachable') ? (
          <Button large rounded onClick={() => actor.send({ type: 'network.retry' })}>
            <Trans>重试</Trans>
          </Button>
        ) : null}
      </Block>
    </article>
  );
}
