// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { book, newCard, newClass, newMember } from '../server/booking/support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The Book tab (/takecourse/takelistm; the daily path is short): a member with nothing
 * booked ahead lands on the schedule to book from; one with a class ahead sees my bookings, the
 * schedule one tap away; a scope the member chose is shown as is, even empty. Real screens and server.
 */
const h = await startScreenHarness({ seed: true });
const $ = (sel: string) => document.querySelector<HTMLElement>(sel);

describe('the Book tab opens on what the member comes to do', () => {
  it('nothing booked ahead: the schedule', async () => {
    const m = await newMember(h.server);
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open('/takecourse/takelistm');
    await ui.waitForPath('/takecourse/bookcourse');
    // chosen by the member: the empty list, with the way to book
    await h.open('/takecourse/takelistm?scope=upcoming');
    expect($('[data-my-bookings-empty]')?.textContent).toContain('还没有待上的课程');
  });

  it('a class booked ahead: my bookings, with the schedule one tap away', async () => {
    const m = await newMember(h.server);
    const card = await newCard(h.server, m.id, { name: '测试次卡' });
    const cls = await newClass(h.server);
    expect((await book(h.server, m.token, cls.id, card.id)).body.code).toBe(200);
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open('/takecourse/takelistm');
    expect(ui.path()).toBe('/takecourse/takelistm');
    expect(document.querySelectorAll('[data-my-bookings="upcoming"] li')).toHaveLength(1);
    expect($('[data-action="to-schedule"]')?.getAttribute('href')).toBe('/takecourse/bookcourse');
  });
});
