import { catalogueLoader, CatalogueView } from './catalogue-view';

export const loader = catalogueLoader('private');

/** /personalClass: the private classes on sale. */
export default function PrivateClassListScreen() {
  return <CatalogueView kind="private" />;
}
