import { courseDetailLoader, CourseDetailView } from './course-detail-view';

export const loader = courseDetailLoader('training');

/** /tt/ttDetails?id=: one training course; a phase is chosen before buying. */
export default function TrainingDetailScreen() {
  return <CourseDetailView kind="training" />;
}
