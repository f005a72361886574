// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { book, newCard, newClass, newMember, sh } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * A clash said before the tap: a class that overlaps one the member booked shows, on the
 * schedule and on its page, which booking it clashes with, and its page offers no booking; the real
 * screens against the real server. Without a clash the page offers the booking as before.
 */
const h = await startScreenHarness({ seed: true });

async function memberWithBooking() {
  const m = await newMember(h.server);
  const card = await newCard(h.server, m.id);
  const booked = await newClass(h.server, {
    startsAt: sh('2026-11-21 18:00'),
    durationMin: 90,
    title: '傍晚流瑜伽',
    titleEn: 'Evening flow',
  });
  const clashing = await newClass(h.server, { startsAt: sh('2026-11-21 19:00'), clubId: 2, title: '夜间阴瑜伽', titleEn: 'Night yin' });
  const after = await newClass(h.server, { startsAt: sh('2026-11-21 19:30'), title: '晚间冥想', titleEn: 'Late meditation' });
  expect((await book(h.server, m.token, booked.id, card.id)).body.data.state).toBe('booked');
  h.jar.setClientCookie('token', m.token);
  return { booked, clashing, after };
}

describe('a clash with a booking, before the tap', () => {
  it('the class page names the booking it clashes with, links to it, and offers no booking', async () => {
    const { booked, clashing } = await memberWithBooking();
    await h.open(`/takecourse/bookcourse/bookcoursedetail?id=${clashing.id}`);
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('与您已预约的「傍晚流瑜伽」（11-21 18:00–19:30）时间冲突');
    expect(screen.getByRole('link', { name: '查看该预约' }).getAttribute('href')).toBe(
      `/takecourse/bookcourse/bookcoursedetail?id=${booked.id}`,
    );
    expect(screen.getByRole('button', { name: '时间冲突，不能预约' })).toHaveProperty('disabled', true);
    expect(document.querySelector('[data-action="book"]')).toBeNull();
  });

  it('a class right after the booking is bookable as before: no clash said', async () => {
    const { after } = await memberWithBooking();
    await h.open(`/takecourse/bookcourse/bookcoursedetail?id=${after.id}`);
    await screen.findByText(/立即预约/);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it("the schedule marks the clashing class with the booking's name; not the booking itself, not the class right after", async () => {
    const { booked, clashing, after } = await memberWithBooking();
    await h.open('/takecourse/bookcourse?date=2026-11-21');
    await screen.findAllByText('夜间阴瑜伽');
    // (the earlier tests' classes at the same hours clash with this booking too)
    const marked = [...document.querySelectorAll<HTMLElement>('[data-class] [data-clash]')].map((el) =>
      Number(el.closest<HTMLElement>('[data-class]')!.dataset.class),
    );
    expect(marked).toContain(clashing.id);
    expect(marked).not.toContain(after.id);
    expect(marked).not.toContain(booked.id);
    expect(document.querySelector(`[data-class="${clashing.id}"] [data-clash]`)!.textContent).toBe('与已约的「傍晚流瑜伽」时间冲突');
    expect(document.querySelector(`[data-class="${after.id}"] [data-clash]`)).toBeNull();
    expect(document.querySelector(`[data-class="${booked.id}"] [data-clash]`)).toBeNull();
  });
});
