import { MyBookingsView, myBookingsLoader } from './my-bookings-view';

export const loader = myBookingsLoader;

/** /takecourse/takelistm: my bookings, upcoming and past, with cancel actions. */
export default function MyBookingsScreen() {
  return <MyBookingsView base="/takecourse/takelistm" detail={(id) => `/takecourse/bookcourse/bookcoursedetail?id=${id}`} />;
}
