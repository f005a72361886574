import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { useState } from 'react';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';

/**
 * An application's ID number, masked, with the "reveal" action (decision 055): staff say why they
 * need the whole number; the server records the reason in the audit log and answers the number.
 */
export function RevealIdNumber(props: { transferId: number; masked: string }) {
  const { i18n, t } = useLingui();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const reveal = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.revealIdNumber(props.transferId, reason.trim());
      if (r.code === 200 && r.data) setShown(r.data.idNumber);
      else setError(r.code);
    } catch {
      setError(Errors.network.code);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-reveal-id={props.transferId}>
      <span className="tabular-nums" data-id-number>
        {shown ?? props.masked}
      </span>
      {shown === null && !open ? (
        <button type="button" className="ml-2 text-primary underline" data-action="reveal-open" onClick={() => setOpen(true)}>
          <Trans>查看完整号码</Trans>
        </button>
      ) : null}
      {shown === null && open ? (
        <form
          className="mt-2 flex flex-wrap gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void reveal();
          }}
        >
          <label className="flex w-full flex-col gap-1">
            <Trans>查看原因（将记入操作记录）</Trans>
            <input
              className="block min-h-11 w-full rounded-lg border border-black/15 px-3"
              name="revealReason"
              value={reason}
              maxLength={200}
              placeholder={t`例如：核对身份证照片`}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
          <Button small rounded inline type="submit" data-action="reveal" disabled={busy || !reason.trim()}>
            <Trans>确认查看</Trans>
          </Button>
        </form>
      ) : null}
      {error !== null ? (
        <p role="alert" className="mt-1 text-rose-600">
          {i18n._(refusalMessage(error))}
        </p>
      ) : null}
    </div>
  );
}
