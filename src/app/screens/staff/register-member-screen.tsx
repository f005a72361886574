import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button, List, ListInput } from 'konsta/react';
import { useRef, useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffMemberForm, StaffMemberRegistered } from '../../../contracts/staff-members';
import { newIntentKey } from '../../../domain/intent-key';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../auth/auth-messages';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead<StaffMemberForm>(() => apiFrom(context).staff.memberForm());

/** How a default password is formed, in words the desk reads out (never a password). */
export function DefaultPasswordWords({ rule }: { rule: StaffMemberForm['defaultPassword'] }) {
  const { prefix, digits } = rule;
  return prefix ? <Trans>“{prefix}”加手机号后 {digits} 位</Trans> : <Trans>手机号后 {digits} 位</Trans>;
}

/**
 * /staff/members/new (decision 045): the front desk registers a walk-in member by phone and name; the
 * member logs in with the default password (the page says how it is formed, to tell them) and is led
 * to change it. One Idempotency-Key per filled form, so a double tap registers once.
 */
export default function RegisterMemberScreen() {
  const d = useLoaderData() as StaffData<StaffMemberForm>;
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [done, setDone] = useState<StaffMemberRegistered | null>(null);
  const [error, setError] = useState<{ code: number; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef(newIntentKey());
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    key.current = newIntentKey();
    setError(null);
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.registerMember({ phone: phone.trim(), name: name.trim() }, key.current);
      if (r.code === 200) {
        setDone(r.data as StaffMemberRegistered);
        setPhone('');
        setName('');
        key.current = newIntentKey();
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
              为到店的新会员开通账号。会员用手机号和默认密码（<DefaultPasswordWords rule={form.defaultPassword} />）登录，首次登录后会被引导修改密码。
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
              <ListInput label={<Trans>手机号</Trans>} type="tel" inputMode="numeric" name="phone" value={phone} onChange={edit(setPhone)} error={error?.field === 'phone' ? i18n._(refusalMessage(error.code)) : undefined} />
              <ListInput label={<Trans>姓名</Trans>} type="text" name="name" value={name} onChange={edit(setName)} error={error?.field === 'name' ? i18n._(refusalMessage(error.code)) : undefined} />
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
              <Trans>
                已为 {done.name}（{done.phone}）开通会员账号。请告诉会员：默认密码为<DefaultPasswordWords rule={done.defaultPassword} />，首次登录后请修改。
              </Trans>
            </Block>
          ) : null}
        </>
      )}
    </StaffPage>
  );
}
