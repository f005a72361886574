import { msg } from '@lingui/core/macro';

/** The product title, the fallback page title (spec §2). Here, not in routes.tsx, so the layout needs no import of the route table. */
export const PRODUCT_TITLE = msg`瑜伽会馆`;
