import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link } from 'react-router-dom';
import type { MemberCardDetail } from '../../../api/cards';
import { transferPolicyPath, transferStatePath } from '../card-transfer/transfer-data';
import { OfferRefused } from './offer-refused';

/**
 * Transfer on the card page (decision 026): offered when the server would take an application now
 * (its offer), leading to the rules and policy; else its reason, and with an application unfinished
 * (30004) a link to its state.
 */
export function CardTransferEntry(props: { card: MemberCardDetail }) {
  const { card } = props;
  const offer = card.offers.find((o) => o.operation === 'transfer');
  if (!offer) return null;
  if (offer.allowed) {
    return (
      <Button large rounded outline component={Link} {...{ to: transferPolicyPath(card.id) }} data-action="transfer">
        <Trans>转让</Trans>
      </Button>
    );
  }
  return <TransferRefused card={card} offer={offer} />;
}

/** Why a transfer is refused now; with a transfer application unfinished (30004) a link to its state. */
export function TransferRefused(props: { card: MemberCardDetail; offer: MemberCardDetail['offers'][number] }) {
  const { card, offer } = props;
  return (
    <>
      <OfferRefused offer={offer} label={<Trans>转让</Trans>} />
      {offer.code === 30004 && card.application === 'transfer' && (
        <p className="text-center">
          <Link to={transferStatePath(card.id)} className="text-sm text-primary" data-transfer-state-link>
            <Trans>查看转让申请</Trans>
          </Link>
        </p>
      )}
    </>
  );
}
