import { courseDetailLoader, CourseDetailView } from './course-detail-view';

export const loader = courseDetailLoader('workshop');

/** /greatworkshop/greatWorkShopDetails?id=: one workshop with its buy bar. */
export default function WorkshopDetailScreen() {
  return <CourseDetailView kind="workshop" />;
}
