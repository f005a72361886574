import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { staffDecisionMachine, type StaffDecision } from '../../../../machines/staff-decision.machine';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';

/**
 * What a staff queue's rows share (transfers, card refunds, new-teacher requests, complaints,
 * invoices, account closings), through the staffDecision chart: the text typed for each row (a
 * reason or a reply), `act`, which sends one decision under a new intent key (a double tap acts
 * once) and reads the queue again, the row whose decision is on its way, the refusal the server gave
 * a row, the row whose decision the screen is asking about (confirm or not now), and the row whose
 * decision did not reach the server (retry or close).
 */
export function useStaffDecisions() {
  const revalidate = useStableRevalidate();
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const logic = useMemo(
    () =>
      staffDecisionMachine.provide({
        actors: { decide: fromPromise(({ input }) => input.decision.send(input.idempotencyKey)) },
        actions: { queueChanged: revalidate },
      }),
    [revalidate],
  );
  const flow = useActorRef(logic);
  const view = useSelector(
    flow,
    (s) => {
      const id = s.context.decision?.id ?? null;
      return {
        ready: s.hasTag('ready'),
        confirming: s.hasTag('confirming') ? id : null,
        busy: s.hasTag('deciding') ? id : null,
        error: s.hasTag('refused') && id !== null ? { id, code: s.context.errorCode! } : null,
        unreachable: s.hasTag('unreachable') ? id : null,
      };
    },
    (a, b) =>
      a.ready === b.ready &&
      a.confirming === b.confirming &&
      a.busy === b.busy &&
      a.unreachable === b.unreachable &&
      a.error?.id === b.error?.id &&
      a.error?.code === b.error?.code,
  );
  /** `asks`: the decision cannot be undone and moves money, a card or an account: the screen confirms it first (DecisionConfirm) */
  const act = (id: number, send: StaffDecision['send'], asks = false) => flow.send({ type: 'decision.send', decision: { id, send, asks } });
  const accept = () => flow.send({ type: 'confirm.accept' });
  const retry = () => flow.send({ type: 'network.retry' });
  const dismiss = () => flow.send({ type: 'confirm.dismiss' });
  return { revalidate, reasons, setReasons, act, accept, retry, dismiss, ...view };
}

export type StaffDecisions = ReturnType<typeof useStaffDecisions>;
