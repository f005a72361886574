import { scheduleLoader, ScheduleView } from './schedule-view';

export const loader = scheduleLoader('regular');

/** /regularClass: regular classes only, from the same schedule. */
export default function RegularClassScreen() {
  return <ScheduleView base="/regularClass" detail={(id) => `/regularClass/noAppointment/${id}`} filter="/regularClass/sizer" />;
}
