import { Trans } from '@lingui/react/macro';
import { ReasonInput } from './reason-input';
import { Button } from 'konsta/react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffTransfer } from '../../../contracts/card-transfers';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { RevealIdNumber } from './reveal-id-number';
import { StaffPage } from './staff-parts';
import { DecisionConfirm } from './decision-confirm';
import { DecisionNotice } from './decision-notice';
import { useStaffDecisions } from './use-staff-decisions';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.transfers());

/**
 * /staff/transfers: card transfer applications (decision 026), oldest first: take a pending one for
 * review, then approve it or reject it with the reason the member reads. Each tap is one intent
 * (Idempotency-Key), so a double tap acts once. The ID number shows masked; staff reveal it with a
 * reason (decision 055).
 */
/** What approving does, said before it is sent: which card goes from whom to whom, and that it cannot be undone. */
function TransferWillDo({ x }: { x: StaffTransfer | undefined }) {
  if (!x) return null;
  const card = `${x.cardName} · ${x.cardNumber}`;
  const from = x.fromName ? `${x.fromName}（${x.fromPhone}）` : x.fromPhone;
  const to = `${x.recipientName}（${x.toPhone}）`;
  return (
    <Trans>
      把「{card}」从{from}转给{to}？原卡随即作废，新卡归{to}，不能撤回。
    </Trans>
  );
}

export default function TransfersScreen() {
  const d = useLoaderData() as StaffData<StaffTransfer[]>;
  const decisions = useStaffDecisions();
  const { revalidate, reasons, setReasons, ready, act } = decisions;
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>转让审核</Trans>}>
      {(list) => (
        <>
          {list.length === 0 ? (
            <p className="p-6 text-center text-sm text-black/60">
              <Trans>没有等待审核的转让申请</Trans>
            </p>
          ) : (
            <ul className="grid-12 md:cols-2 gap-y-3 p-4" data-transfer-list>
              {list.map((x) => (
                <li
                  key={x.id}
                  className="rounded-xl bg-white p-4 text-sm shadow-sm ring-1 ring-black/5"
                  data-transfer={x.id}
                  data-state={x.state}
                >
                  <p className="text-base font-medium">
                    {x.cardName} · {x.cardNumber}
                  </p>
                  <p>
                    {x.fromName ? `${x.fromName} ` : ''}
                    {x.fromPhone} → {x.toPhone} · {x.recipientName}
                  </p>
                  <RevealIdNumber transferId={x.id} masked={x.idNumber} />
                  <div className="mt-2 flex gap-2">
                    <img
                      src={`/api/staff/transfers/${x.id}/image/id-photo`}
                      alt=""
                      width={96}
                      height={64}
                      className="h-16 w-24 rounded bg-black/5 object-cover"
                    />
                    <img
                      src={`/api/staff/transfers/${x.id}/image/photo`}
                      alt=""
                      width={64}
                      height={64}
                      className="h-16 w-16 rounded bg-black/5 object-cover"
                    />
                  </div>
                  <DecisionNotice decisions={decisions} id={x.id} className="mt-1" />
                  {x.state === 'pending' ? (
                    <Button
                      small
                      rounded
                      inline
                      className="mt-3"
                      disabled={!ready}
                      onClick={() => void act(x.id, (key) => browserApiOrThrow().staff.transferStep('take', x.id, key))}
                    >
                      <Trans>开始审核</Trans>
                    </Button>
                  ) : (
                    <>
                      <ReasonInput className="mt-3" value={reasons[x.id] ?? ''} onChange={(v) => setReasons({ ...reasons, [x.id]: v })} />
                      <div className="mt-2 flex gap-2">
                        <Button
                          small
                          rounded
                          inline
                          disabled={!ready}
                          onClick={() => void act(x.id, (key) => browserApiOrThrow().staff.transferStep('approve', x.id, key), true)}
                        >
                          <Trans>通过</Trans>
                        </Button>
                        <Button
                          small
                          rounded
                          inline
                          outline
                          disabled={!ready || !(reasons[x.id] ?? '').trim()}
                          onClick={() =>
                            void act(x.id, (key) => browserApiOrThrow().staff.rejectTransfer(x.id, (reasons[x.id] ?? '').trim(), key))
                          }
                        >
                          <Trans>不通过</Trans>
                        </Button>
                      </div>
                    </>
                  )}
                  <p className="mt-2 text-xs text-black/60">{shanghaiFormat(new Date(x.createdAt), 'YYYY-MM-DD HH:mm')}</p>
                </li>
              ))}
            </ul>
          )}
          <DecisionConfirm
            decisions={decisions}
            title={<Trans>通过转让</Trans>}
            confirmText={<Trans>确定转让</Trans>}
            what={(id) => <TransferWillDo x={list.find((x) => x.id === id)} />}
          />
        </>
      )}
    </StaffPage>
  );
}
