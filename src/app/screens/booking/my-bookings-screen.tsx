import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import { MyBookingsView, myBookingsLoader } from './my-bookings-view';

/** Where the Book tab sends a member with nothing booked ahead: the schedule to book from. */
export const SCHEDULE_PATH = '/takecourse/bookcourse';

/**
 * The Book tab's page opens on what the member comes to do: with nothing booked ahead, the schedule;
 * otherwise my bookings (the schedule one tap away). A scope the member chose (`?scope=`) is shown as is.
 */
export async function loader(args: LoaderFunctionArgs) {
  const mine = await myBookingsLoader(args);
  if (!new URL(args.request.url).searchParams.has('scope') && mine.page.total === 0) throw redirect(SCHEDULE_PATH);
  return mine;
}

/** /takecourse/takelistm: my bookings, upcoming and past, with cancel actions. */
export default function MyBookingsScreen() {
  return <MyBookingsView base="/takecourse/takelistm" detail={(id) => `/takecourse/bookcourse/bookcoursedetail?id=${id}`} />;
}
