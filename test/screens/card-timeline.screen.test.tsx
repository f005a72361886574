// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { lastValidDay, addDays, shanghaiDate } from '../../src/domain/time';
import { book, cardRow, DAY, newCard, newClass, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * The card's timeline on its pages (decision 034): /mine/carddetail shows the newest five
 * lines and a link to the rest, /mine/CardDetailPage the whole life, newest first, in Chinese and in
 * English: a class booked with it and the use given back, a planned freeze and its calling off, an
 * extension and a change of adviser, each with what it changed. The steps are the real API's; the
 * screens are the real ones against the real server. Another member's card is not shown.
 */
const h = await startScreenHarness({ seed: true });
const STEP = 60_000;

/** A member's card with a life: activated ten days ago, then a class and its cancel, a freeze called off, an extension, an adviser. */
async function cardWithLife() {
  const m = await newMember(h.server);
  const card = await newCard(h.server, m.id);
  const call = async (path: string, body: unknown) =>
    expect((await h.server.call('POST', `/api/customers/${path}`, { token: m.token, body })).body.code, path).toBe(200);
  const cls = await newClass(h.server, {
    startsAt: new Date(h.server.clock.now().getTime() + DAY),
    title: '晨间流瑜伽',
    titleEn: 'Morning flow',
  });
  const booked = await book(h.server, m.token, cls.id, card.id);
  h.server.clock.advance(STEP);
  await call('classes/cancel', { bookingId: booked.body.data.bookingId });
  h.server.clock.advance(STEP);
  const end = lastValidDay((await cardRow(h.server, card.id)).validUntil!);
  const from = addDays(shanghaiDate(h.server.clock.now()), 3);
  await call('cards/freeze', { id: card.id, from, until: from });
  h.server.clock.advance(STEP);
  await call('cards/unfreeze', { id: card.id });
  h.server.clock.advance(STEP);
  const extended = addDays(end, 10);
  await call('cards/extend', { id: card.id, until: extended });
  h.server.clock.advance(STEP);
  await call('cards/adviser', { id: card.id, clubId: 1, adviserId: 1 });
  h.server.clock.advance(STEP);
  await call('cards/adviser', { id: card.id, clubId: 2, adviserId: 3 });
  h.jar.setClientCookie('token', m.token);
  return { m, card, end, from, extended };
}

const rows = () =>
  [...document.querySelectorAll('[data-card-history]')].map((r) => [
    r.getAttribute('data-card-history'),
    r.querySelector('[data-card-history-detail]')?.textContent ?? null,
  ]);
const title = (kind: string) => document.querySelector(`[data-card-history="${kind}"] .font-medium`)?.textContent;

describe("the card's timeline on its pages", () => {
  it('the card page: the newest five lines, newest first, each with what it changed, and a link to the whole life', async () => {
    const { card, end, from, extended } = await cardWithLife();
    await h.open(`/mine/carddetail?id=${card.id}`);
    await screen.findByText('会员卡动态');
    expect(rows()).toEqual([
      ['adviser', '王静 → 张敏（徐家汇店）'],
      ['adviser', '王静（静安寺旗舰店）'],
      ['extend', `到期日期 ${end} → ${extended}`],
      ['unfreeze', `到期日期改为 ${end}`],
      ['freeze', `到期日期 ${end} → ${addDays(end, 1)}`],
    ]);
    expect(title('unfreeze')).toBe(`提前解冻（${from} 至 ${from} 的冻结）`);
    expect(title('freeze')).toBe(`冻结 ${from} 至 ${from}`);
    // the card says its adviser now
    expect(document.querySelector('[data-card-adviser]')?.textContent).toBe('顾问：张敏（徐家汇店）');
    // class, use given back, activation: 8 lines in all
    expect(document.querySelector('[data-card-history-all]')?.textContent).toBe('查看全部（8条）');
  });

  it('the whole life in English: the use given back, the class, the activation', async () => {
    const { card, end, extended } = await cardWithLife();
    await h.open(`/mine/CardDetailPage?id=${card.id}`, { locale: 'en' });
    await screen.findAllByText('Morning flow');
    expect(rows().map(([kind]) => kind)).toEqual(['adviser', 'adviser', 'extend', 'unfreeze', 'freeze', 'returned', 'class', 'activated']);
    expect(rows()[0]![1]).toMatch(/^Wang Jing → Zhang Min \([A-Za-z ]+\)$/);
    expect(rows()[2]![1]).toBe(`End date ${end} → ${extended}`);
    expect(title('adviser')).toBe('Change adviser');
    expect(title('returned')).toBe('Booking cancelled, uses given back');
    expect(document.querySelector('[data-card-history="returned"]')?.textContent).toContain('+1');
    expect(document.querySelector('[data-card-history="class"]')?.textContent).toContain('Morning flow');
    expect(title('activated')).toBe('Activated');
  });

  it("another member's card: not found, no timeline", async () => {
    const { card } = await cardWithLife();
    const other = await newMember(h.server);
    h.jar.setClientCookie('token', other.token);
    await h.open(`/mine/carddetail?id=${card.id}`);
    await screen.findByText('没有找到这张会员卡');
    expect(rows()).toEqual([]);
  });
});
