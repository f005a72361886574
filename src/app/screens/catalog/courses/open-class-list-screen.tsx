import { catalogueLoader, CatalogueView } from './catalogue-view';

export const loader = catalogueLoader('open');

/** /commonClass: the open classes on sale. */
export default function OpenClassListScreen() {
  return <CatalogueView kind="open" />;
}
