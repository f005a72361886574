import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { useNavigate } from 'react-router-dom';
import type { GoodsDetail } from '../../../../api/catalog-goods';
import { Errors } from '../../../../domain/errors';
import type { GoodsChoice } from '../../../../domain/goods-choice';
import { GoodsPrice } from '../../../ui/goods-price';
import { buyBarState, priceFor } from './buy-bar-rules';

/** Why Buy is disabled (in the words of the refusal the server would give), or what happens next. */
function BarNote(props: { state: ReturnType<typeof buyBarState> }) {
  const { i18n } = useLingui();
  const s = props.state;
  if (s.step === 'choose') return <>{i18n._((s.need === 'phase' ? Errors.goodsPhaseRequired : Errors.goodsTeacherRequired).message)}</>;
  if (s.step === 'unavailable') return <>{s.message ?? <Trans>暂不可购买</Trans>}</>;
  if (s.step === 'login') return <Trans>登录后购买，可享会员价</Trans>;
  return null;
}

/**
 * The buy bar of every class-type detail, fixed at the bottom: the price for the current choice and
 * Buy. Buy stays disabled (saying why) until the goods can be bought and the phase or teacher is
 * chosen; a visitor goes to log in first, a member on to the agreement (the checkout).
 */
export function BuyBar(props: { goods: GoodsDetail; choice: GoodsChoice; member: boolean }) {
  const navigate = useNavigate();
  const state = buyBarState(props.goods, props.choice, props.member);
  const price = priceFor(props.goods, props.choice);
  const go = state.step === 'buy' || state.step === 'login' ? state.to : null;
  return (
    <div
      className="fixed inset-x-0 bottom-0 z-20 flex items-center gap-3 border-t border-black/10 bg-white px-4 pt-2 pb-[calc(0.5rem+env(safe-area-inset-bottom))]"
      data-buy-bar={state.step}
    >
      <div className="min-w-0 flex-1">
        <GoodsPrice listPriceCents={price.listPriceCents} memberPriceCents={price.memberPriceCents} large />
        <p
          className={`truncate text-xs ${state.step === 'choose' || state.step === 'unavailable' ? 'text-rose-600' : 'text-black/60'}`}
          data-buy-note
        >
          <BarNote state={state} />
        </p>
      </div>
      <Button
        large
        rounded
        inline
        className="w-auto shrink-0 px-8"
        disabled={go === null}
        onClick={() => go && void navigate(go)}
        data-action="buy"
      >
        <Trans>立即购买</Trans>
      </Button>
    </div>
  );
}
