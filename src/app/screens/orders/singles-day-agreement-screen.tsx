import { Trans } from '@lingui/react/macro';
import { AgreementText, commonClauses } from './agreement-text';

/** /agreement/CommonAgreement_11 — the purchase agreement of the Singles Day flash sale. */
export default function SinglesDayAgreementScreen() {
  return (
    <AgreementText
      id="singles-day"
      title={<Trans>双十一抢购协议</Trans>}
      clauses={[
        <Trans key="limit">抢购商品数量有限，售完即止；每人限购一份，以支付成功的先后为准。</Trans>,
        <Trans key="hold">抢到名额后请在订单有效期内完成支付，逾期名额将释放给其他会员。</Trans>,
        <Trans key="no-coupon">抢购价格已是最低价，部分优惠券可能不适用。</Trans>,
        ...commonClauses(),
      ]}
    />
  );
}
