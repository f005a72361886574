import { filterLoader, FilterView } from './filter-view';

export const loader = filterLoader;

/** /regularClass/sizer: the course filter for regular classes. */
export default function RegularFilterScreen() {
  return <FilterView target="/regularClass" />;
}
