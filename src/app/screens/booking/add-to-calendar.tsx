import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { icsPath } from '../../../api/booking';
import { SessionContext } from '../../session/session-provider';
import { useToast } from '../../ui/toast';

/**
 * "Add to calendar": the booking's .ics file (title, club address, start, end, Asia/Shanghai). The
 * server reads the Authorization-token header, so the file is fetched with it and handed to the
 * browser as a download; without JavaScript the link still points at the file.
 */
export function AddToCalendar(props: { bookingId: number }) {
  const { t } = useLingui();
  const toast = useToast();
  const token = SessionContext.useSelector((s) => s.context.token);
  const [busy, setBusy] = useState(false);
  const href = icsPath(props.bookingId);
  return (
    <a
      href={href}
      download={`booking-${props.bookingId}.ics`}
      data-ics={props.bookingId}
      aria-busy={busy || undefined}
      className="inline-flex items-center gap-1 text-sm text-primary"
      onClick={async (e) => {
        e.preventDefault();
        if (busy) return;
        setBusy(true);
        try {
          const res = await fetch(href, { headers: token ? { 'Authorization-token': token } : {} });
          if (!res.ok) throw new Error(String(res.status));
          const url = URL.createObjectURL(new Blob([await res.text()], { type: 'text/calendar' }));
          const a = document.createElement('a');
          a.href = url;
          a.download = `booking-${props.bookingId}.ics`;
          a.click();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        } catch {
          toast({ message: t`网络连接失败`, type: 'fail' });
        } finally {
          setBusy(false);
        }
      }}
    >
      <svg aria-hidden width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <rect x="4" y="5.5" width="16" height="15" rx="2" />
        <path d="M8 3.5v4M16 3.5v4M4 10h16M12 13v5M9.5 15.5h5" />
      </svg>
      <Trans>添加到日历</Trans>
    </a>
  );
}
