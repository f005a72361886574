import { courseDetailLoader, CourseDetailView } from './course-detail-view';

export const loader = courseDetailLoader('open');

/** /commonClass/commonClassDetails?id=: one open class with its buy bar. */
export default function OpenClassDetailScreen() {
  return <CourseDetailView kind="open" />;
}
