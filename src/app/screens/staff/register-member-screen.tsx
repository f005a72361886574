import { Trans, useLingui } from '@lingui/react/macro';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffMemberForm, StaffMemberRegistered } from '../../../contracts/staff-members';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead<StaffMemberForm>(() => apiFrom(context).staff.memberForm());

/**
 * /staff/members/new (decision 054): the front desk registers a walk-in member by phone and name and
 * is shown the member's random initial password once, to hand over; the member's first login with it
 * must set a new one. No Idempotency-Key (the answer is never kept): the button is disabled while the
 * request runs, and a second try for the same phone is refused (70168).
 */
export default function RegisterMemberScreen() {
  const d = useLoaderData() as StaffData<StaffMemberForm>;
  const { i18n, t } = useLingui();
  const revalidate = useStableRevalidate();
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [done, setDone] = useState<StaffMemberRegistered | null>(null);
  const [error, setError] = useState<{ code: number; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setError(null);
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.registerMember({ phone: phone.trim(), name: name.trim() });
      if (r.code === 200) {
        setDone(r.data as StaffMemberRegistered);
        setPhone('');
        setName('');
      } else setError({ code: r.code, field: r.field });
    } catch {
      setError({ code: 70002 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>登记新会员</Trans>}>
      {(form) => (
        <>
          <p className="px-4 pt-2 text-sm text-black/60">
            <Trans>
              为到店的新会员开通账号。登记后系统生成一个 {form.initialPasswordLength}{' '}
              位的随机初始密码，只显示这一次，请当面交给会员；会员首次用它登录时须设置新密码。
            </Trans>
          </p>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (!busy) void submit();
            }}
          >
            <List strong inset className="!my-3">
              <LabelledInput
                label={<Trans>手机号</Trans>}
                type="tel"
                inputMode="numeric"
                name="phone"
                value={phone}
                onChange={edit(setPhone)}
                error={error?.field === 'phone' ? i18n._(refusalMessage(error.code)) : undefined}
              />
              <LabelledInput
                label={<Trans>姓名</Trans>}
                type="text"
                name="name"
                value={name}
                onChange={edit(setName)}
                error={error?.field === 'name' ? i18n._(refusalMessage(error.code)) : undefined}
              />
            </List>
            {error && error.field !== 'phone' && error.field !== 'name' ? (
              <p role="alert" className="px-4 text-sm text-rose-600">
                {i18n._(refusalMessage(error.code))}
              </p>
            ) : null}
            <Block className="!my-3">
              <Button rounded type="submit" disabled={busy}>
                {busy ? <Trans>登记中…</Trans> : <Trans>登记</Trans>}
              </Button>
            </Block>
          </form>
          {done ? (
            <Block strong inset role="status" data-registered={done.phone}>
              <p>
                <Trans>
                  已为 {done.name}（{done.phone}）开通会员账号。初始密码（只显示这一次，请交给会员，首次登录须修改）：
                </Trans>
              </p>
              <p className="mt-2 select-all font-mono text-2xl tracking-widest" data-initial-password aria-label={t`初始密码`}>
                {done.initialPassword}
              </p>
            </Block>
          ) : null}
        </>
      )}
    </StaffPage>
  );
}
