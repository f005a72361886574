import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { Envelope } from '../../../domain/envelope';
import type { BindCodeIssued, BindCodeView, StaffTeacherRow } from '../../../api/binding';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

interface BindCodesData {
  teachers: StaffTeacherRow[];
  codes: BindCodeView[];
}

export const loader = ({ context }: LoaderFunctionArgs) =>
  staffRead<BindCodesData>(async () => {
    const api = apiFrom(context);
    const [t, c] = await Promise.all([api.staff.teachers(), api.staff.bindCodes()]);
    const failed = t.code !== 200 ? t : c.code !== 200 ? c : null;
    return (failed ? { ...failed, data: null } : { ...t, data: { teachers: t.data, codes: c.data } }) as Envelope<BindCodesData>;
  });

const STATUS: Record<BindCodeView['status'], MessageDescriptor> = {
  live: msg`有效`,
  used: msg`已使用`,
  revoked: msg`已作废`,
  expired: msg`已过期`,
};
const when = (iso: string) => shanghaiFormat(new Date(iso), 'MM-DD HH:mm');

/** /staff/bindCodes: issue a bind code for a teacher (shown once), the latest codes, revoke a live one. */
export default function BindCodesScreen() {
  const d = useLoaderData() as StaffData<BindCodesData>;
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const [teacherId, setTeacherId] = useState('');
  const [phone, setPhone] = useState('');
  const [issued, setIssued] = useState<BindCodeIssued | null>(null);
  const [error, setError] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (run: () => Promise<{ code: number; data: unknown }>, after?: (data: unknown) => void) => {
    setBusy(true);
    setError(null);
    try {
      const r = await run();
      if (r.code === 200) after?.(r.data);
      else setError(r.code);
      revalidate();
    } catch {
      setError(70002);
    } finally {
      setBusy(false);
    }
  };

  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>老师绑定码</Trans>}>
      {({ teachers, codes }) => {
        const chosen = teachers.find((t) => String(t.id) === teacherId);
        return (
          <>
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                if (!chosen) return setError(60005);
                void act(
                  () => browserApiOrThrow().staff.issueBindCode(chosen.id, chosen.accountId === null ? phone.trim() : undefined),
                  (data) => setIssued(data as BindCodeIssued),
                );
              }}
            >
              <List strong inset className="!my-3">
                <LabelledInput
                  label={<Trans>老师</Trans>}
                  type="select"
                  name="teacherId"
                  value={teacherId}
                  onChange={(e: { target: { value: string } }) => setTeacherId(e.target.value)}
                >
                  <option value="">{i18n._(msg`请选择老师`)}</option>
                  {teachers.map((t) => (
                    <option key={t.id} value={String(t.id)}>
                      {t.name}
                      {t.bound ? ` · ${i18n._(msg`已绑定`)}` : ''}
                    </option>
                  ))}
                </LabelledInput>
                {chosen && chosen.accountId === null ? (
                  <LabelledInput
                    label={<Trans>老师手机号（首次绑定时建立老师账号）</Trans>}
                    type="tel"
                    name="phone"
                    value={phone}
                    onChange={(e: { target: { value: string } }) => setPhone(e.target.value)}
                  />
                ) : null}
              </List>
              {error !== null ? (
                <p role="alert" className="px-4 text-sm text-rose-600">
                  {i18n._(refusalMessage(error))}
                </p>
              ) : null}
              <Block className="!my-3">
                <Button rounded type="submit" disabled={busy}>
                  <Trans>发放绑定码</Trans>
                </Button>
              </Block>
            </form>
            {issued ? (
              <Block strong inset className="text-center" data-issued-code={issued.code}>
                <p className="text-sm text-black/60">
                  <Trans>
                    {issued.teacherName} 的绑定码（仅显示这一次，{when(issued.expiresAt)} 前有效）：
                  </Trans>
                </p>
                <p className="mt-2 font-mono text-3xl tracking-widest" data-code>
                  {issued.code}
                </p>
              </Block>
            ) : null}
            <BlockTitle>
              <Trans>最近的绑定码</Trans>
            </BlockTitle>
            <ul className="mx-4 divide-y divide-black/5 rounded-xl bg-white" data-code-list>
              {codes.map((c) => (
                <li key={c.id} className="flex items-center justify-between gap-2 p-3 text-sm" data-code-row={c.id} data-status={c.status}>
                  <span>
                    {c.teacherName} · ••••••{c.hint}
                    <span className="block text-xs text-black/60">
                      {i18n._(STATUS[c.status])} · <Trans>有效至 {when(c.expiresAt)}</Trans>
                    </span>
                  </span>
                  {c.status === 'live' ? (
                    <Button
                      small
                      rounded
                      inline
                      outline
                      disabled={busy}
                      onClick={() => void act(() => browserApiOrThrow().staff.revokeBindCode(c.id))}
                    >
                      <Trans>作废</Trans>
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        );
      }}
    </StaffPage>
  );
}
