import { courseDetailLoader, CourseDetailView } from './course-detail-view';

export const loader = courseDetailLoader('primary');

/** /primaryClass/primaryClassDetails?id=: one small-group course with its buy bar. */
export default function SmallGroupDetailScreen() {
  return <CourseDetailView kind="primary" />;
}
