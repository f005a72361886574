// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { book, bookingRow, DAY, MINUTE, newCard, newClass, newMember } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { assign, newTeacher } from '../server/schedule/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * /bindPage/teacherImg (decision 029): the real screen against the real server. The teacher
 * sees the QR code of the current class, carrying a signed /signed link; a booked member who opens
 * that link on /signed checks in; the screen renews the link; anyone but a teacher sees who it is for.
 */
const h = await startScreenHarness({ seed: true });

describe('the teacher QR screen', () => {
  it('shows the current class as a QR of its signed link, which checks a booked member in on /signed', async () => {
    const now = h.server.clock.now();
    h.server.clock.set(new Date(now.getTime() - DAY));
    const teacher = await newTeacher(h.server);
    const staff = await newStaff(h.server);
    const cls = await newClass(h.server, {
      teacherId: null,
      teacherState: 'not_started',
      title: '二维码课',
      titleEn: 'QR class',
      startsAt: new Date(now.getTime() + 30 * MINUTE),
    });
    expect((await assign(h.server, staff.token, cls.id, teacher.id)).body.code).toBe(200);
    const member = await newMember(h.server);
    const card = await newCard(h.server, member.id);
    const bookingId = (await book(h.server, member.token, cls.id, card.id)).body.data.bookingId as number;
    h.server.clock.set(now);

    h.jar.setClientCookie('token', teacher.token);
    await h.open('/bindPage/teacherImg');
    expect(await screen.findByText('二维码课')).toBeTruthy();
    const box = document.querySelector<HTMLElement>('[data-qr-url]')!;
    expect(box.querySelector('svg')).not.toBe(null);
    const url = new URL(box.dataset.qrUrl!);
    expect(url.pathname).toBe('/signed');
    expect(url.searchParams.get('classId')).toBe(String(cls.id));

    // the member scans it: the /signed page of that link checks them in
    h.jar.setClientCookie('token', member.token);
    const ui = await h.open(`${url.pathname}${url.search}`);
    await ui.user.click(await screen.findByRole('button', { name: '确认签到' }));
    expect(await screen.findByText('签到成功，祝您练习愉快')).toBeTruthy();
    expect((await bookingRow(h.server, bookingId)).state).toBe('checked_in');
  });

  it('a photo of an old QR is refused on /signed with the expired message', async () => {
    const now = h.server.clock.now();
    const teacher = await newTeacher(h.server);
    const staff = await newStaff(h.server);
    const cls = await newClass(h.server, { teacherId: null, teacherState: 'not_started', startsAt: new Date(now.getTime() + 20 * MINUTE) });
    expect((await assign(h.server, staff.token, cls.id, teacher.id)).body.code).toBe(200);
    const member = await newMember(h.server);
    const card = await newCard(h.server, member.id);
    expect((await book(h.server, member.token, cls.id, card.id)).body.code).toBe(200);
    const link = (await h.server.call('GET', '/api/teacher/checkin-link', { token: teacher.token })).body.data.url as string;
    h.server.clock.advance(3 * MINUTE);
    const url = new URL(link);
    h.jar.setClientCookie('token', member.token);
    const ui = await h.open(`${url.pathname}${url.search}`);
    await ui.user.click(await screen.findByRole('button', { name: '确认签到' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('签到二维码已过期，请扫描老师手机上最新的二维码'));
  });

  it('a member opening it is told the page is for teachers', async () => {
    const member = await newMember(h.server);
    h.jar.setClientCookie('token', member.token);
    await h.open('/bindPage/teacherImg');
    expect(await screen.findByText('此页面仅供已绑定的老师使用')).toBeTruthy();
    expect(document.querySelector('[data-qr-url]')).toBe(null);
  });
});
