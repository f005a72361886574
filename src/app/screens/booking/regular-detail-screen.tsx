import { Trans } from '@lingui/react/macro';
import { classDetailLoader, ClassDetailView } from './class-detail-view';

export const loader = classDetailLoader;

/** /regularClass/noAppointment/:id: one regular class. */
export default function RegularDetailScreen() {
  return <ClassDetailView back="/regularClass" backLabel={<Trans>查看常规课</Trans>} />;
}
