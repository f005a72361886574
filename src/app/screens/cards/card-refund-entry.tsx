import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link } from 'react-router-dom';
import type { MemberCardDetail } from '../../../api/cards';
import { refundPath } from '../refund/refund-data';
import { OfferRefused } from './offer-refused';

/** An invalid card (30011): its refund page shows the request that ended it, when one did. */
const ENDED = 30011;

/**
 * Refund on the card page (decisions 030, 031): offered when the server would take a request now (its
 * offer), leading to the policy and the amount on /mine/refund; else its reason, and with a refund
 * request unfinished, or the card ended by one, a link to the refund page.
 */
export function CardRefundEntry(props: { card: MemberCardDetail }) {
  const { card } = props;
  const offer = card.offers.find((o) => o.operation === 'refund');
  if (!offer) return null;
  if (offer.allowed) {
    return (
      <Button large rounded outline component={Link} {...{ to: refundPath(card.id) }} data-action="refund">
        <Trans>退款</Trans>
      </Button>
    );
  }
  return (
    <>
      <OfferRefused offer={offer} label={<Trans>退款</Trans>} />
      {((offer.code === 30004 && card.application === 'refund') || offer.code === ENDED) && (
        <p className="text-center">
          <Link to={refundPath(card.id)} className="text-sm text-primary" data-refund-link>
            <Trans>查看退款申请</Trans>
          </Link>
        </p>
      )}
    </>
  );
}
