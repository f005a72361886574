// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { MemberCard } from '../../../src/api/booking';
import type { CardHistoryItem } from '../../../src/api/cards';
import { CardHistoryList } from '../../../src/app/screens/cards/card-history-row';
import { CardHeader } from '../../../src/app/screens/cards/card-header';
import { MyCardRow } from '../../../src/app/screens/cards/my-card-row';
import { renderWithI18n } from './render-with-i18n';

const card: MemberCard = {
  id: 4,
  name: '10次卡',
  number: 'C0004',
  cardType: 'count',
  clubId: null,
  status: 'inactive',
  usesTotal: 10,
  usesLeft: 10,
  validFrom: null,
  validUntil: null,
  validityDays: 180,
  extensionCount: 0,
  weekendOnly: false,
  offPeakSlots: [],
  bookingWindowDays: null,
  experience: false,
  familySub: false,
};

describe('my card row (spec §3 card; §4 status)', () => {
  it('an inactive card: its status label, uses of the total, and validity from the first booking; it opens the card', () => {
    renderWithI18n(
      <MemoryRouter>
        <MyCardRow card={card} status="inactive" />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('/mine/carddetail?id=4');
    expect(link.textContent).toContain('未激活');
    expect(link.textContent).toContain('剩余10/10次');
    expect(link.textContent).toContain('首次预约后生效，有效180天');
  });

  it('a card in use shows its validity dates in Shanghai and unlimited uses for a time-based card', () => {
    renderWithI18n(
      <MemoryRouter>
        <MyCardRow
          card={{
            ...card,
            status: 'in_use',
            usesTotal: null,
            usesLeft: null,
            validFrom: '2026-01-31T16:30:00Z',
            validUntil: '2027-01-31T15:59:59Z',
          }}
          status="in_use"
        />
      </MemoryRouter>,
    );
    const text = screen.getByRole('link').textContent;
    expect(text).toContain('使用中');
    expect(text).toContain('不限次数');
    expect(text).toContain('2026-02-01 ~ 2027-01-31');
  });
});

describe('a family main card held as a sub card (decision 040)', () => {
  const shared: MemberCard = {
    ...card,
    cardType: 'family-main',
    name: '亲情年卡（主卡）',
    status: 'in_use',
    usesTotal: 100,
    usesLeft: 96,
    familySub: true,
  };

  it("is marked in my cards as a family sub card, its owner's cards are not", () => {
    const { unmount } = renderWithI18n(
      <MemoryRouter>
        <MyCardRow card={shared} status="in_use" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link').querySelector('[data-family-sub]')?.textContent).toBe('亲情卡副卡');
    unmount();
    renderWithI18n(
      <MemoryRouter>
        <MyCardRow card={{ ...shared, familySub: false }} status="in_use" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link').querySelector('[data-family-sub]')).toBeNull();
  });

  it("says on the card page that its uses are shared and the main card's holder manages it", () => {
    const detail = { ...shared, offers: [], operations: [] } as unknown as Parameters<typeof CardHeader>[0]['card'];
    const { container, unmount } = renderWithI18n(<CardHeader card={detail} status="in_use" />);
    expect(container.querySelector('[data-family-sub]')?.textContent).toBe('亲情卡副卡：与主卡持有人共用次数和有效期，由主卡持有人管理');
    unmount();
    const own = renderWithI18n(<CardHeader card={{ ...detail, familySub: false }} status="in_use" />);
    expect(own.container.querySelector('[data-family-sub]')).toBeNull();
  });
});

describe("a card's history", () => {
  it('bought (with what was paid, in yuan), activated, and a class with the uses it spent', () => {
    const items: CardHistoryItem[] = [
      {
        kind: 'class',
        at: '2026-11-20T10:00:00Z',
        bookingId: 9,
        state: 'checked_in',
        usesSpent: 1,
        classTitle: '流瑜伽',
        clubName: '静安店',
        classStartsAt: '2026-11-20T10:00:00Z',
      },
      { kind: 'activated', at: '2026-11-19T10:00:00Z', classTitle: null },
      {
        kind: 'bought',
        at: '2026-11-18T10:00:00Z',
        orderNo: 'O1',
        money: {
          scope: 'order',
          goodsTotalCents: 108_050,
          couponCents: 0,
          paidCents: 108_050,
          refundedCents: 0,
          refundingCents: 0,
          toPayCents: 0,
          payers: [{ who: 'me', name: null, method: 'wechat', paidCents: 108_050, refundedCents: 0, refundingCents: 0 }],
        },
      },
    ];
    renderWithI18n(<CardHistoryList items={items} />);
    // the timeline's own lines (the bought line holds its money breakdown, a list of its own)
    const rows = screen.getAllByRole('listitem').filter((li) => !li.closest('[aria-label="金额明细"]'));
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('流瑜伽');
    expect(rows[0]!.textContent).toContain('已签到');
    expect(rows[0]!.textContent).toContain('-1');
    expect(rows[1]!.textContent).toContain('激活');
    expect(rows[2]!.textContent).toContain('¥1080.50');
    expect(within(screen.getByRole('list', { name: '金额明细' })).getAllByRole('listitem')[1]!.textContent).toBe('微信支付¥1080.50');
  });

  it('an empty history says so', () => {
    renderWithI18n(<CardHistoryList items={[]} />);
    expect(screen.getByText('暂无使用记录')).toBeTruthy();
  });
});
