import { catalogueLoader, CatalogueView } from './catalogue-view';

export const loader = catalogueLoader('training');

/** /tt: the teacher-training courses on sale. */
export default function TrainingListScreen() {
  return <CatalogueView kind="training" />;
}
