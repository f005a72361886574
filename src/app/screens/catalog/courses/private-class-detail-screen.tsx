import { courseDetailLoader, CourseDetailView } from './course-detail-view';

export const loader = courseDetailLoader('private');

/** /personalClass/personalClassDetails?id=: one private class; the teacher is chosen before buying. */
export default function PrivateClassDetailScreen() {
  return <CourseDetailView kind="private" />;
}
