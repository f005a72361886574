import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, List, ListItem } from 'konsta/react';
import { Link, useLoaderData } from 'react-router-dom';
import type { TeacherRequestView } from '../../../api/binding';
import { shanghaiFormat } from '../../../domain/time';
import { RouterLink } from '../../ui/router-link';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { BindQueryFailed, NoOpenId } from './bind-parts';
import { bindStatusLoader, type BindPageData } from './bind-data';

export const loader = bindStatusLoader;

const ROLE: Record<'teacher' | 'staff', MessageDescriptor> = { teacher: msg`老师`, staff: msg`门店员工` };
export const REQUEST_STATE: Record<TeacherRequestView['state'], MessageDescriptor> = {
  pending: msg`等待门店确认`,
  confirmed: msg`已确认`,
  refused: msg`未通过`,
};

/**
 * /bindPage: business-system binding (spec §5). Shows the current binding, if any; otherwise the
 * choice: a teacher with a bind code, a new teacher, or staff. Without the silent login's open id the
 * page says so and offers to run it again.
 */
export default function BindHomeScreen() {
  const d = useLoaderData() as BindPageData;
  const { i18n } = useLingui();
  const retry = useStableRevalidate();
  if (d.failed !== null) return <BindQueryFailed code={d.failed} onRetry={retry} />;
  const { binding, openIdPresent, request } = d.status;
  return (
    <article className="pb-6" data-bind-home>
      {binding ? (
        <Block strong inset className="!mt-6" data-current-binding={binding.role}>
          <p className="text-base font-medium">
            <Trans>
              已绑定为{i18n._(ROLE[binding.role])}：{binding.name ?? ''}
            </Trans>
          </p>
          <p className="mt-1 text-sm text-black/60">
            <Trans>绑定时间 {shanghaiFormat(new Date(binding.since), 'YYYY-MM-DD HH:mm')}</Trans>
          </p>
          {binding.role === 'staff' ? (
            <Link className="mt-3 inline-block text-primary underline" to="/staff">
              <Trans>进入员工工作台</Trans>
            </Link>
          ) : (
            <Link className="mt-3 inline-block text-primary underline" to="/bindPage/teacherHome">
              <Trans>进入老师主页</Trans>
            </Link>
          )}
          <p className="mt-2 text-xs text-black/60">
            <Trans>如需解除绑定，请联系门店工作人员。</Trans>
          </p>
        </Block>
      ) : (
        <>
          {!openIdPresent ? <NoOpenId from="/bindPage" /> : null}
          <BlockTitle>
            <Trans>请选择绑定身份</Trans>
          </BlockTitle>
          <List strong inset>
            <ListItem
              link
              title={<Trans>老师绑定</Trans>}
              subtitle={<Trans>使用门店发放的绑定码</Trans>}
              linkComponent={RouterLink}
              linkProps={{ to: '/bindPage/teacherBind' }}
            />
            <ListItem
              link
              title={<Trans>新老师申请</Trans>}
              subtitle={<Trans>尚未录入系统的老师填写资料，门店确认后绑定</Trans>}
              linkComponent={RouterLink}
              linkProps={{ to: '/bindPage/newteacherBind' }}
            />
            <ListItem
              link
              title={<Trans>员工绑定</Trans>}
              subtitle={<Trans>使用员工账号的用户名和密码</Trans>}
              linkComponent={RouterLink}
              linkProps={{ to: '/bindPage/userBind' }}
            />
          </List>
        </>
      )}
      {request ? (
        <Block className="text-sm" data-request-state={request.state}>
          <Link className="text-primary underline" to="/bindPage/newteacherConfirm">
            <Trans>我的新老师申请：{i18n._(REQUEST_STATE[request.state])}</Trans>
          </Link>
        </Block>
      ) : null}
    </article>
  );
}
