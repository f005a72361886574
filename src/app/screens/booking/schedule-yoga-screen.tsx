import { scheduleLoader, ScheduleView } from './schedule-view';

export const loader = scheduleLoader();

/** /takecourse/bookcourse_yoga: the same schedule opening the yoga variant of the class detail. */
export default function ScheduleYogaScreen() {
  return (
    <ScheduleView
      base="/takecourse/bookcourse_yoga"
      detail={(id) => `/takecourse/bookcourse/bookcoursedetail_yoga?id=${id}`}
      filter="/takecourse/bookcourse/bookcoursefilter"
    />
  );
}
