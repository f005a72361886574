import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import type { ReactNode } from 'react';
import { formatYuan } from '../../../domain/money';
import { TimeLeft } from './time-left';

/** What a friend pays for: the goods, the amount in yuan and, while it is open, the time left. */
export function InvitationCard(props: { goodsName: string; amountCents: number; expiresAt?: string; children?: ReactNode }) {
  return (
    <Block strong inset className="!my-4 space-y-2 text-center" data-invitation>
      <p className="text-sm text-black/60">
        <Trans>好友代付</Trans>
      </p>
      <h1 className="text-lg font-semibold break-words" data-goods-name>
        {props.goodsName}
      </h1>
      <p className="text-3xl font-semibold tabular-nums" data-amount>
        {formatYuan(props.amountCents)}
      </p>
      {props.expiresAt && <TimeLeft expiresAt={props.expiresAt} />}
      {props.children}
    </Block>
  );
}
