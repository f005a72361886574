import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import type { ReactNode } from 'react';
import { formatYuan } from '../../../domain/money';
import { shanghaiMinute } from '../../../domain/time';
import { TimeLeft } from './time-left';

/** The member who asks the friend to pay, as the server names them (decision 099). */
export interface Asker {
  name: string;
  avatar: string | null;
}

/**
 * What a friend pays for: who asks (on the friend's page), the goods, the amount in yuan and, while it
 * is open, until when and the time left.
 */
export function InvitationCard(props: { goodsName: string; amountCents: number; expiresAt?: string; asker?: Asker; children?: ReactNode }) {
  const { asker } = props;
  const name = asker?.name ?? '';
  const deadline = props.expiresAt && Number.isFinite(Date.parse(props.expiresAt)) ? shanghaiMinute(props.expiresAt) : '';
  return (
    <Block strong inset className="!my-4 space-y-2 text-center" data-invitation>
      {asker ? (
        <div className="flex flex-col items-center gap-2" data-asker>
          {asker.avatar ? (
            <img src={asker.avatar} alt={name} width={56} height={56} className="h-14 w-14 rounded-full bg-black/5 object-cover" />
          ) : (
            <div
              aria-hidden
              className="flex h-14 w-14 items-center justify-center rounded-full bg-primary text-lg font-semibold text-white"
            >
              {[...name].at(-1) ?? '?'}
            </div>
          )}
          <p className="text-sm text-black/70" data-asker-name>
            <Trans>
              <span className="font-semibold text-black">{name}</span> 请你代付
            </Trans>
          </p>
        </div>
      ) : (
        <p className="text-sm text-black/60">
          <Trans>好友代付</Trans>
        </p>
      )}
      <h1 className="text-lg font-semibold break-words" data-goods-name>
        {props.goodsName}
      </h1>
      <p className="text-3xl font-semibold tabular-nums" data-amount>
        {formatYuan(props.amountCents)}
      </p>
      {deadline && (
        <p className="text-sm text-black/60 tabular-nums" data-deadline>
          <Trans>请在 {deadline} 前支付</Trans>
        </p>
      )}
      {props.expiresAt && <TimeLeft expiresAt={props.expiresAt} />}
      {props.children}
    </Block>
  );
}
