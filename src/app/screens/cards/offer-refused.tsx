import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { MemberCardDetail } from '../../../api/cards';

/** A card operation the server does not offer now, with its reason (spec §8 cards), as the server said it. */
export function OfferRefused(props: { offer: MemberCardDetail['offers'][number]; label: ReactNode }) {
  const { label } = props;
  const reason = props.offer.message;
  return (
    <p className="text-center text-sm text-black/60" data-offer-refused={props.offer.operation} data-code={props.offer.code ?? undefined}>
      <Trans>
        {label}：{reason}
      </Trans>
    </p>
  );
}
