import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, List, ListItem } from 'konsta/react';
import { RouterLink } from '../../../ui/router-link';

/** /about: who we are, and where to go next. */
export default function AboutScreen() {
  return (
    <>
      <Block className="!mt-8 text-center">
        <svg aria-hidden width="64" height="64" viewBox="0 0 64 64" className="mx-auto text-primary">
          <circle cx="32" cy="32" r="30" fill="currentColor" opacity=".12" />
          <path
            d="M32 14c5 6 5 13 0 19-5-6-5-13 0-19zM18 30c7 1 12 5 14 11-7-1-12-5-14-11zm28 0c-2 6-7 10-14 11 2-6 7-10 14-11zM20 46h24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
          />
        </svg>
        <h1 className="mt-3 text-xl font-semibold">
          <Trans>瑜伽会馆</Trans>
        </h1>
        <p className="mt-1 text-sm text-black/60">
          <Trans>让练习成为日常</Trans>
        </p>
      </Block>
      <BlockTitle>
        <Trans>关于我们</Trans>
      </BlockTitle>
      <Block strong inset>
        <p className="leading-relaxed">
          <Trans>我们是一家专注瑜伽与普拉提的连锁会馆，在城市中心开设多家门店，提供常规团课、小班课、私教课、大师工作坊与教师培训。</Trans>
        </p>
        <p className="mt-3 leading-relaxed">
          <Trans>
            我们的导师均持有国际认证，课程覆盖从入门到进阶的各个阶段。无论您是第一次踏上瑜伽垫，还是多年的练习者，都能在这里找到适合自己的课程。
          </Trans>
        </p>
      </Block>
      <List strong inset>
        <ListItem link linkComponent={RouterLink} linkProps={{ to: '/club' }} title={<Trans>门店列表</Trans>} />
        <ListItem link linkComponent={RouterLink} linkProps={{ to: '/tutor' }} title={<Trans>导师团队</Trans>} />
        <ListItem link linkComponent={RouterLink} linkProps={{ to: '/qa' }} title={<Trans>常见问题</Trans>} />
      </List>
    </>
  );
}
