import { Trans } from '@lingui/react/macro';
import { AgreementText, commonClauses } from './agreement-text';

/** /agreement/CommonAgreement — the purchase agreement the checkout asks the member to accept. */
export default function CommonAgreementScreen() {
  return <AgreementText id="common" title={<Trans>购买协议</Trans>} clauses={commonClauses()} />;
}
