import { filterLoader, FilterView } from './filter-view';

export const loader = filterLoader;

/** /takecourse/bookcourse/bookcoursefilter: course filter conditions for the schedule. */
export default function FilterScreen() {
  return <FilterView target="/takecourse/bookcourse" />;
}
