import { scheduleLoader, ScheduleView } from './schedule-view';

export const loader = scheduleLoader();

/** /takecourse/bookcourse: the course reservation schedule (week strip, studios, filter, classes by day). */
export default function ScheduleScreen() {
  return (
    <ScheduleView
      base="/takecourse/bookcourse"
      detail={(id) => `/takecourse/bookcourse/bookcoursedetail?id=${id}`}
      filter="/takecourse/bookcourse/bookcoursefilter"
    />
  );
}
