import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import { data, Link, type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { TeacherRequestView } from '../../../api/binding';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom } from '../../api-context';
import { cookiesFrom } from '../../session/request-session';
import { NotFoundState } from '../../ui/not-found-state';
import { REQUEST_STATE } from './bind-home-screen';
import { silentLoginAgain } from './bind-data';

/** The request sent from this browser (its key is the HttpOnly bindRequest cookie; the server render passes it). */
export async function loader({ context }: LoaderFunctionArgs) {
  const key = typeof document === 'undefined' ? cookiesFrom(context).bindRequest || undefined : undefined;
  const r = await apiFrom(context).binding.myRequest(key);
  return r.code === 200 ? data<TeacherRequestView | null>(r.data) : data<TeacherRequestView | null>(null, { status: 404 });
}

/** /bindPage/newteacherConfirm: where the new-teacher request stands (waiting, confirmed, refused with the reason). */
export default function NewTeacherConfirmScreen() {
  const r = useLoaderData() as TeacherRequestView | null;
  const { i18n } = useLingui();
  if (!r)
    return (
      <NotFoundState message={<Trans>没有找到您的申请</Trans>} backTo="/bindPage/newteacherBind" backLabel={<Trans>填写申请</Trans>} />
    );
  return (
    <article className="pb-6" data-request={r.id} data-state={r.state}>
      <Block strong inset className="!mt-6">
        <p className="text-lg font-medium" role="status">
          {i18n._(REQUEST_STATE[r.state])}
        </p>
        <p className="mt-2 text-sm">
          {r.name} · {r.phone} · {r.clubName}
        </p>
        <p className="text-xs text-black/60">
          <Trans>提交时间 {shanghaiFormat(new Date(r.createdAt), 'YYYY-MM-DD HH:mm')}</Trans>
        </p>
        {r.state === 'refused' ? (
          <p className="mt-3 text-sm text-rose-600" data-reason>
            <Trans>绑定信息有误：{r.reason ?? ''}</Trans>
          </p>
        ) : null}
        {r.state === 'confirmed' ? (
          <a className="mt-3 inline-block text-primary underline" href={silentLoginAgain('/bindPage')}>
            <Trans>以老师身份登录</Trans>
          </a>
        ) : null}
        {r.state === 'refused' ? (
          <Link className="mt-3 block text-primary underline" to="/bindPage/newteacherBind">
            <Trans>重新填写申请</Trans>
          </Link>
        ) : null}
      </Block>
      {/* while staff decide there is nothing to do here: the page is no dead end for the teacher who waits */}
      <Block className="!my-4 text-center">
        <Link className="inline-flex min-h-11 items-center text-primary" to="/" data-action="home">
          <Trans>返回首页</Trans>
        </Link>
      </Block>
    </article>
  );
}
