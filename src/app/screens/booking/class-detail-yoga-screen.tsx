import { Trans } from '@lingui/react/macro';
import { classDetailLoader, ClassDetailView } from './class-detail-view';

export const loader = classDetailLoader;

/** /takecourse/bookcourse/bookcoursedetail_yoga?id=: the yoga variant (the teacher's photo first). */
export default function ClassDetailYogaScreen() {
  return <ClassDetailView back="/takecourse/bookcourse_yoga" backLabel={<Trans>查看课程表</Trans>} yoga />;
}
