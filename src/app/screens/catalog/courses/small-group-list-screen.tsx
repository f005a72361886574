import { catalogueLoader, CatalogueView } from './catalogue-view';

export const loader = catalogueLoader('primary');

/** /primaryClass: the small-group (primary) courses on sale. */
export default function SmallGroupListScreen() {
  return <CatalogueView kind="primary" />;
}
