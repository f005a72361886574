// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { shanghaiClock, shanghaiDate } from '../../src/domain/time';
import { eq } from 'drizzle-orm';
import { accounts } from '../../src/server/db/schema/index';
import { hashPassword } from '../../src/server/services/auth-password';
import { DAY, HOUR, newClass, newMember } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { assign, newTeacher } from '../server/schedule/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * /bindPage/teacherHome (decision 097): the real screen against the real server. A bound teacher
 * sees today's classes and the classes waiting for them with each deadline, reaches the QR and the
 * schedule by tapping and comes back; a member is told the page is for teachers with the way to bind;
 * Mine leads a teacher to the home and staff to the console.
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;
let n = 0;

async function asked(teacherId: number, inMs: number) {
  const title = `主页课${++n}`;
  const cls = await newClass(s, {
    teacherId: null,
    teacherState: 'not_started',
    title,
    titleEn: `Home class ${n}`,
    startsAt: new Date(s.clock.now().getTime() + inMs),
  });
  const staff = await newStaff(s);
  const r = await assign(s, staff.token, cls.id, teacherId);
  expect(r.body.code).toBe(200);
  return { ...cls, title, titleEn: `Home class ${n}`, confirmBy: new Date(r.body.data.confirmBy as string) };
}

const region = (name: RegExp) => screen.getByRole('region', { name });
const deadline = (at: Date) => `${shanghaiDate(at).slice(5)} ${shanghaiClock(at)}`;

describe('the teacher home', () => {
  it("shows today's classes and the waiting ones with their deadlines; the QR and the schedule are a tap away and lead back", async () => {
    const teacher = await newTeacher(s, '林美');
    const today = await asked(teacher.id, 2 * HOUR);
    const later = await asked(teacher.id, 10 * DAY);
    h.jar.setClientCookie('token', teacher.token);
    const ui = await h.open('/bindPage/teacherHome');

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('林美老师，您好');
    const todayList = region(/今天的课程/);
    expect(todayList.textContent).toContain(today.title);
    expect(todayList.textContent).not.toContain(later.title);
    const waiting = region(/等待您确认的课程（2）/);
    expect(waiting.textContent).toContain(`请在 ${deadline(later.confirmBy)} 前确认`);
    expect(waiting.textContent).toContain(`请在 ${deadline(today.confirmBy)} 前确认`);
    expect(
      [...waiting.querySelectorAll('[data-teacher-class]')].map((a) => Number(a.getAttribute('data-teacher-class'))),
      'the soonest deadline first',
    ).toEqual([today.id, later.id]);

    await ui.user.click(screen.getByRole('link', { name: '出示签到二维码' }));
    await ui.waitForPath('/bindPage/teacherImg');
    expect(await screen.findByText(today.title)).toBeTruthy();
    await ui.user.click(screen.getByRole('link', { name: '老师主页' }));
    await ui.waitForPath('/bindPage/teacherHome');

    await ui.user.click(screen.getByRole('link', { name: '我的课表' }));
    await ui.waitForPath('/bindPage/teacherConfirm');
    await ui.user.click(screen.getByRole('link', { name: '签到二维码' }));
    await ui.waitForPath('/bindPage/teacherImg');
    await ui.user.click(screen.getByRole('link', { name: '我的课表' }));
    await ui.waitForPath('/bindPage/teacherConfirm');
    await ui.user.click(screen.getByRole('link', { name: '老师主页' }));
    await ui.waitForPath('/bindPage/teacherHome');

    // a waiting class opens its confirm form
    await ui.user.click(screen.getByRole('link', { name: new RegExp(later.title) }));
    await ui.waitForPath(new RegExp(`^/bindPage/teacherConfirmForm\\?id=${later.id}&`));
  });

  it('says when nothing is today and nothing waits', async () => {
    const teacher = await newTeacher(s, '何老师');
    h.jar.setClientCookie('token', teacher.token);
    await h.open('/bindPage/teacherHome');
    expect(region(/今天的课程/).textContent).toContain('今天没有安排给您的课程');
    expect(region(/等待您确认的课程（0）/).textContent).toContain('没有等待您确认的课程');
    expect(screen.getByRole('link', { name: '出示签到二维码' }).getAttribute('href')).toBe('/bindPage/teacherImg');
  });

  it("speaks English with the teacher's English name", async () => {
    const teacher = await newTeacher(s, '宋老师');
    const cls = await asked(teacher.id, 3 * DAY);
    h.jar.setClientCookie('token', teacher.token);
    await h.open('/bindPage/teacherHome', { locale: 'en' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hello, 宋老师 (en)');
    const waiting = region(/Waiting for your confirmation \(1\)/);
    expect(waiting.textContent).toContain(cls.titleEn);
    expect(waiting.textContent).toContain(`Please confirm by ${deadline(cls.confirmBy)}`);
    expect(screen.getByRole('link', { name: 'Show the check-in QR code' })).toBeTruthy();
  });

  it('a member opening it is told it is for bound teachers, with the way to bind', async () => {
    const member = await newMember(s);
    h.jar.setClientCookie('token', member.token);
    await h.open('/bindPage/teacherHome');
    expect(screen.getByRole('alert').textContent).toBe('此页面仅供已绑定的老师使用');
    expect(screen.getByRole('link', { name: '老师绑定' }).getAttribute('href')).toBe('/bindPage/teacherBind');
    expect(screen.getByRole('link', { name: '返回首页' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('link', { name: '出示签到二维码' })).toBe(null);
  });

  it('Mine leads a teacher to the home and staff to the console; a member sees neither', async () => {
    const teacher = await newTeacher(s, '梁老师');
    const passwordHash = await hashPassword('pass1234', s.deps.config.passwordScryptN);
    const [t] = await s.deps.db.update(accounts).set({ passwordHash }).where(eq(accounts.id, teacher.accountId)).returning();
    const staff = await newStaff(s);
    const [st] = await s.deps.db.update(accounts).set({ passwordHash }).where(eq(accounts.id, staff.id)).returning();
    for (const [phone, name, to] of [
      [t!.phone, '老师主页', '/bindPage/teacherHome'],
      [st!.phone, '员工工作台', '/staff'],
    ] as const) {
      await h.logIn(phone, 'pass1234');
      const ui = await h.open('/mine');
      expect(screen.getByRole('link', { name })).toBeTruthy();
      await ui.user.click(screen.getByRole('link', { name }));
      await ui.waitForPath(to);
      ui.unmount();
      h.jar.clear();
    }
    const member = await newMember(s);
    const [m] = await s.deps.db.update(accounts).set({ passwordHash }).where(eq(accounts.id, member.id)).returning();
    await h.logIn(m!.phone, 'pass1234');
    await h.open('/mine');
    expect(screen.queryByRole('link', { name: '老师主页' })).toBe(null);
    expect(screen.queryByRole('link', { name: '员工工作台' })).toBe(null);
  });
});
