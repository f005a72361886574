import { filterLoader, FilterView } from './filter-view';

export const loader = filterLoader;

/** /takecourse/bookcourse/bookcoursefilter: course filter conditions for the schedule it was opened from (`?back=`). */
export default function FilterScreen() {
  return <FilterView />;
}
