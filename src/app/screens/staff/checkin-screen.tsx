import { Trans, useLingui } from '@lingui/react/macro';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useRef, useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import { newIntentKey } from '../../../domain/intent-key';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

/** Reads the photo queue only to know the caller is staff (a member is told why at once). */
export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.photos());

/** /staff/checkin: the front desk checks a member in by the booking's number (the existing check-in service). */
export default function StaffCheckinScreen() {
  const d = useLoaderData() as StaffData<unknown>;
  const { i18n, t } = useLingui();
  const revalidate = useStableRevalidate();
  const [bookingId, setBookingId] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; code: number } | null>(null);
  const [busy, setBusy] = useState(false);
  // one intent per booking number: a double tap or a retry checks in once
  const key = useRef({ id: '', key: newIntentKey() });
  const submit = async () => {
    const id = Number(bookingId.trim());
    if (!Number.isInteger(id) || id <= 0) return setOutcome({ ok: false, code: 70003 });
    if (key.current.id !== String(id)) key.current = { id: String(id), key: newIntentKey() };
    setBusy(true);
    try {
      const r = await browserApiOrThrow().staff.checkIn(id, key.current.key);
      setOutcome({ ok: r.code === 200, code: r.code });
    } catch {
      setOutcome({ ok: false, code: 70002 });
    } finally {
      setBusy(false);
    }
  };
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>前台签到</Trans>}>
      {() => (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <List strong inset className="!my-3">
            <LabelledInput
              label={<Trans>预约编号</Trans>}
              type="text"
              inputMode="numeric"
              name="bookingId"
              placeholder={t`会员预约详情中的编号`}
              value={bookingId}
              onChange={(e: { target: { value: string } }) => setBookingId(e.target.value)}
            />
          </List>
          {outcome ? (
            <p role={outcome.ok ? 'status' : 'alert'} className={`px-4 text-sm ${outcome.ok ? 'text-emerald-700' : 'text-rose-600'}`}>
              {outcome.ok ? t`已签到` : i18n._(refusalMessage(outcome.code))}
            </p>
          ) : null}
          <Block className="!my-3">
            <Button rounded type="submit" disabled={busy}>
              <Trans>签到</Trans>
            </Button>
          </Block>
        </form>
      )}
    </StaffPage>
  );
}
