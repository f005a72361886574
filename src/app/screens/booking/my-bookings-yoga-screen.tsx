import { MyBookingsView, myBookingsLoader } from './my-bookings-view';

export const loader = myBookingsLoader;

/**
 * /takecourse/takelistm_yoga: the photo-review variant. The booking API sends no photo review state
 * yet, so it is the same list (opening the yoga class detail).
 */
export default function MyBookingsYogaScreen() {
  return <MyBookingsView base="/takecourse/takelistm_yoga" detail={(id) => `/takecourse/bookcourse/bookcoursedetail_yoga?id=${id}`} />;
}
