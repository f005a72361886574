import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Errors } from '../../../domain/errors';
import { BindQueryFailed } from '../binding/bind-parts';
import type { StaffData } from './staff-data';

/** Why a staff page shows nothing: this account is not staff (403), with the way to bind as staff. */
export function NotStaff() {
  return (
    <Block strong inset className="!mt-8 text-center" data-not-staff>
      <p role="alert" className="text-base font-medium">
        <Trans>此页面仅供门店员工使用</Trans>
      </p>
      <p className="mt-2 text-sm text-black/60">
        <Trans>您当前登录的账号不是员工账号（服务器答复：没有权限）。门店员工请先用员工账号绑定微信。</Trans>
      </p>
      <Link className="mt-3 inline-block text-primary underline" to="/bindPage/userBind">
        <Trans>员工绑定</Trans>
      </Link>
    </Block>
  );
}

/** A staff page's frame: the 403 and failure answers, else the page; phone and tablet widths. */
export function StaffPage<T>(props: { d: StaffData<T>; onRetry(): void; children(data: T): ReactNode; title: ReactNode }) {
  if (!props.d.ok)
    return props.d.code === Errors.forbidden.code ? <NotStaff /> : <BindQueryFailed code={props.d.code} onRetry={props.onRetry} />;
  return (
    <article className="mx-auto max-w-3xl px-1 pb-8" data-staff-page>
      <div className="flex items-center justify-between px-4 pt-4">
        <h1 className="text-lg font-semibold">{props.title}</h1>
        <Link className="text-sm text-primary underline" to="/staff">
          <Trans>工作台</Trans>
        </Link>
      </div>
      {props.children(props.d.data)}
    </article>
  );
}
