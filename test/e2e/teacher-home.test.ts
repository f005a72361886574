import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffTeacherRow } from '../../src/api/binding';
import type { StaffWeek, TeacherHome } from '../../src/api/schedule';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, passwordToken } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import type { RunningServer } from './support/server';

const staff = demoAccounts.find((a) => a.role === 'staff')!;

/** What a teacher taps and reads, in each language. */
const WORDS = {
  zh: { teacherBind: '老师绑定', bind: '绑定', showQr: '出示签到二维码', home: '老师主页', waiting: '等待您确认的课程' },
  en: {
    teacherBind: 'Teacher binding',
    bind: 'Bind',
    showQr: 'Show the check-in QR code',
    home: 'Teacher home',
    waiting: 'Waiting for your confirmation',
  },
} as const;

/**
 * From binding to the QR by taps only (decision 097): staff issue a bind code for a catalogue
 * teacher and ask them to teach a class; the teacher's phone opens the binding page, taps "teacher
 * binding", types the code, binds, lands on the teacher home (the class waiting, with its deadline),
 * taps "show the check-in QR" and sees the QR of their next class, and taps back to the home. Once in
 * Chinese and once in English, each with a teacher of its own.
 */
describe('a teacher goes from binding to the check-in QR without typing an address', () => {
  const browser = useBrowser();
  let server: RunningServer;
  let staffToken: string;
  let free: StaffTeacherRow[];
  beforeAll(async () => {
    server = await startOwnServer();
    staffToken = await passwordToken(server.url, staff.phone, staff.password);
    free = (await api<StaffTeacherRow[]>(server.url, '/staff/teachers', { token: staffToken })).data.filter(
      (t) => !t.bound && t.accountId === null,
    );
    expect(free.length, 'two catalogue teachers without a login').toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const [i, lang] of (['zh', 'en'] as const).entries()) {
    it(`in ${lang}`, async () => {
      const w = WORDS[lang];
      const stamp = Date.now();
      const teacher = free[i]!;
      const issued = await api<{ code: string }>(server.url, '/staff/bind-codes', {
        token: staffToken,
        body: { teacherId: teacher.id, phone: `1391${String(stamp).slice(-6)}${i}` },
      });
      expect(issued.code).toBe(200);
      // a class of this week or next, not started, that this teacher is now asked to teach
      const now = Date.now();
      let cls: StaffWeek['classes'][number] | undefined;
      for (const week of ['', `?week=${new Date(now + 7 * 86_400_000).toISOString().slice(0, 10)}`]) {
        const classes = (await api<StaffWeek>(server.url, `/staff/schedule${week}`, { token: staffToken })).data.classes;
        cls = classes.find((c) => c.canAssign && Date.parse(c.startsAt) > now + 3 * 3_600_000 && c.teacherId !== free[1 - i]!.id);
        if (cls) break;
      }
      expect(cls, 'a class to ask the teacher to teach').toBeTruthy();
      const asked = await api(server.url, `/staff/schedule/${cls!.id}/teacher`, {
        token: staffToken,
        body: { teacherId: teacher.id },
        key: `ask-${stamp}-${lang}`,
      });
      expect(asked.code).toBe(200);

      const phone = await browser.newPage({ baseURL: server.url });
      await phone.context.addCookies([{ name: 'lang', value: lang, url: server.url }]);
      await phone.page.goto(`/api/dev/wechat/identity?as=o_home_${lang}_${stamp}`);
      await gotoHydrated(phone.page, '/bindPage');
      await phone.page.getByRole('link', { name: new RegExp(w.teacherBind) }).click();
      await phone.page.waitForURL((u) => u.pathname === '/bindPage/teacherBind');
      await waitHydrated(phone.page);
      await phone.page.fill('input[name=bindCode]', issued.data.code);
      await phone.page.getByRole('button', { name: w.bind, exact: true }).click();

      // the bind result is the teacher's home: their name in this language, the class waiting with its deadline
      await phone.page.waitForURL((u) => u.pathname === '/bindPage/teacherHome');
      await waitHydrated(phone.page);
      const token = (await phone.context.cookies()).find((c) => c.name === 'token')?.value;
      const res = await fetch(`${server.url}/api/teacher/schedule/home`, {
        headers: { 'Authorization-token': token!, cookie: `lang=${lang}` },
      });
      const home = ((await res.json()) as { data: TeacherHome }).data;
      await expect.poll(() => phone.page.getByRole('heading', { level: 1 }).innerText()).toContain(home.teacherName);
      const waiting = phone.page.getByRole('region', { name: new RegExp(w.waiting) });
      await expect.poll(() => waiting.locator(`[data-teacher-class="${cls!.id}"]`).count()).toBe(1);
      await expect.poll(() => waiting.locator(`[data-teacher-class="${cls!.id}"] [data-confirm-by]`).count()).toBe(1);

      // one tap to the QR of the next class, one tap back
      await phone.page.getByRole('link', { name: w.showQr }).click();
      await phone.page.waitForURL((u) => u.pathname === '/bindPage/teacherImg');
      await waitHydrated(phone.page);
      await expect.poll(() => phone.page.locator('[data-qr-url] svg').count()).toBe(1);
      expect(await phone.page.locator('[data-teacher-qr]').getAttribute('data-teacher-qr')).not.toBe('none');
      await phone.page.getByRole('link', { name: w.home }).click();
      await phone.page.waitForURL((u) => u.pathname === '/bindPage/teacherHome');
    });
  }
});
