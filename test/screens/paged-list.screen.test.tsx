// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CARD_PAGE_SIZE } from '../../src/app/screens/cards/vipcard-screen';
import { FIRST_SCREEN_ROWS } from '../../src/app/ui/paged-list';
import { newGoods } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * A new first page starts a new list (the pager chart's paths walk one list; this is what the
 * screens do around it): on /vipcard's shop, pages loaded for all cards are not carried into a
 * filtered list, nor back. The real screen and server: 12 more count cards than the seed's.
 */
const h = await startScreenHarness({ seed: true });
for (let i = 0; i < 12; i++) await newGoods(h.server, { name: `次卡 ${i + 1}` });

const firstPageOf = async (type?: string) =>
  (
    (await h.server.call('GET', `/api/product/goods/goodList?kind=card&pagenum=0&pagesize=${CARD_PAGE_SIZE}${type ? `&type=${type}` : ''}`))
      .body.data.list as Array<{ id: number }>
  ).map((g) => g.id);
const shown = () =>
  [...document.querySelectorAll<HTMLElement>('[data-list="card-products"] [data-card-product]')].map((e) => Number(e.dataset.cardProduct));

describe('a paged list keeps its later pages with the first page they belong to', () => {
  it('a filter shows its own first page, and back to all shows the first page again', async () => {
    const ui = await h.open('/vipcard?tab=shop');
    const all = await firstPageOf();
    expect(shown()).toEqual(all);
    // the first screen's pictures load with the page; the rest when scrolled to (the first screen's largest paint waits for no other picture)
    const loading = () =>
      [...document.querySelectorAll('[data-list="card-products"] [data-card-product] img')].map((img) => img.getAttribute('loading'));
    expect(loading()).toEqual(all.map((_, i) => (i < FIRST_SCREEN_ROWS ? 'eager' : 'lazy')));
    await ui.user.click(screen.getByRole('button', { name: '加载更多' }));
    await waitFor(() => expect(shown().length).toBeGreaterThan(CARD_PAGE_SIZE));

    await ui.user.click(document.querySelector<HTMLElement>('[data-card-type="count"]')!);
    await ui.waitForPath('/vipcard?tab=shop&type=count');
    await waitFor(async () => expect(shown()).toEqual(await firstPageOf('count')));

    await ui.user.click(screen.getByRole('link', { name: '全部' }));
    await ui.waitForPath('/vipcard?tab=shop');
    await waitFor(() => expect(shown()).toEqual(all));
    expect(screen.getByRole('button', { name: '加载更多' })).toBeTruthy();
  });
});
