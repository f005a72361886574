import { catalogueLoader, CatalogueView } from './catalogue-view';

export const loader = catalogueLoader('workshop');

/** /greatworkshop: the master workshops on sale. */
export default function WorkshopListScreen() {
  return <CatalogueView kind="workshop" />;
}
