import { Trans } from '@lingui/react/macro';
import { classDetailLoader, ClassDetailView } from './class-detail-view';

export const loader = classDetailLoader;

/** /takecourse/bookcourse/bookcoursedetail?id=: reservation details of one class. */
export default function ClassDetailScreen() {
  return <ClassDetailView back="/takecourse/bookcourse" backLabel={<Trans>查看课程表</Trans>} />;
}
