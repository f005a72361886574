import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { PhotoView } from '../../../api/booking';
import { apiFrom } from '../../api-context';
import { dataOr } from '../../ui/data-or';
import { MyBookingsView, myBookingsLoader } from './my-bookings-view';
import { PhotoReviewCard } from './photo-review-card';

/** My bookings and my check-in photo's review state (a photo that cannot be read leaves the list). */
export async function loader(args: LoaderFunctionArgs) {
  const [mine, photo] = await Promise.all([myBookingsLoader(args), dataOr<PhotoView | null>(apiFrom(args.context).booking.photo(), null)]);
  return { ...mine, photo };
}

/**
 * /takecourse/takelistm_yoga: the photo-review variant (spec §4, decision 007): the member's front
 * photo for face check-in with its review state above the same list (opening the yoga class detail).
 */
export default function MyBookingsYogaScreen() {
  const { photo } = useLoaderData<typeof loader>();
  return (
    <>
      {photo && <PhotoReviewCard photo={photo} />}
      <MyBookingsView base="/takecourse/takelistm_yoga" detail={(id) => `/takecourse/bookcourse/bookcoursedetail_yoga?id=${id}`} />
    </>
  );
}
