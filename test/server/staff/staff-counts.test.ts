import { describe, expect, it } from 'vitest';
import { StaffCounts } from '../../../src/contracts/staff-counts';
import { sendCode } from '../auth/support';
import { teacherForm } from '../binding/support';
import { DAY, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { assign, newTeacher, teacherCall } from '../schedule/support';
import { startTestServer } from '../support/harness';

/**
 * GET /api/staff/counts (decision 097): every staff queue's size in one answer, each the length of the
 * list that queue's own page reads for the same staff member (so the console's number is what the page
 * shows), and this week's declined classes; staff only.
 */
const s = await startTestServer({ seed: true });

const list = async (path: string, token: string) => {
  const r = await s.call('GET', path, { token });
  expect(r.body.code, path).toBe(200);
  return r.body.data;
};

describe('the staff counts API', () => {
  it("answers each queue's size as its own list has it, and counts a new teacher request and a declined class", async () => {
    const staff = await newStaff(s);
    const before = StaffCounts.parse((await s.call('GET', '/api/staff/counts', { token: staff.token })).body.data);

    const { body } = await teacherForm(s, sendCode);
    expect((await s.call('POST', '/api/bind/new-teacher', { body })).body.code).toBe(200);
    const teacher = await newTeacher(s);
    const cls = await newClass(s, { teacherId: null, teacherState: 'not_started', startsAt: new Date(s.clock.now().getTime() + DAY) });
    expect((await assign(s, staff.token, cls.id, teacher.id)).body.code).toBe(200);
    expect((await teacherCall(s, teacher.token, 'decline', cls.id, { reason: '生病' })).body.code).toBe(200);

    const r = await s.call('GET', '/api/staff/counts', { token: staff.token });
    expect(r.status).toBe(200);
    const counts = StaffCounts.parse(r.body.data);
    expect(counts.teacherRequests).toBe(before.teacherRequests + 1);
    expect(counts.declinedClasses).toBe(before.declinedClasses + 1);
    expect(counts).toEqual({
      teacherRequests: (await list('/api/staff/teacher-requests', staff.token)).length,
      photos: (await list('/api/staff/photos', staff.token)).length,
      transfers: (await list('/api/staff/transfers', staff.token)).length,
      cardRefunds: (await list('/api/staff/card-refunds', staff.token)).length,
      complaints: (await list('/api/staff/complaints', staff.token)).length,
      invoices: (await list('/api/staff/invoices', staff.token)).length,
      accountClosings: (await list('/api/staff/account-closings', staff.token)).length,
      refunds: (await list('/api/staff/refunds/attention', staff.token)).length,
      declinedClasses: (await list('/api/staff/schedule', staff.token)).counts.declined,
    });
  });

  it('is refused to nobody (401), a member and a teacher (403)', async () => {
    expect((await s.call('GET', '/api/staff/counts')).status).toBe(401);
    const member = await newMember(s);
    expect((await s.call('GET', '/api/staff/counts', { token: member.token })).status).toBe(403);
    const teacher = await newTeacher(s);
    expect((await s.call('GET', '/api/staff/counts', { token: teacher.token })).status).toBe(403);
  });
});
