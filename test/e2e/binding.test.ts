import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import type { RunningServer } from './support/server';

const staff = demoAccounts.find((a) => a.role === 'staff')!;
const teacher = demoAccounts.find((a) => a.role === 'teacher')!;

/**
 * Binding as two phones (spec §5 binding, §6; decision 028): the front desk binds its WeChat with the
 * staff account and issues a bind code for a teacher in the staff console; the teacher, another
 * messaging-app user of the OAuth stand-in in another browser, types the code and lands logged in as
 * the teacher; the staff console then tells the teacher it is not for them.
 */
describe('staff issue a bind code, a teacher binds with it', () => {
  const browser = useBrowser();
  let server: RunningServer;
  // a server of this file's own: the demo staff and teacher bind here, and stay bound
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('staff bind and issue a code; the teacher binds with it and is logged in as the teacher', async () => {
    const stamp = Date.now();
    // the front desk's phone: the silent login leaves an unbound open id, the staff account binds it
    const desk = await browser.newPage({ baseURL: server.url });
    await desk.page.goto(`/api/dev/wechat/identity?as=o_desk_${stamp}`);
    await gotoHydrated(desk.page, '/bindPage/userBind');
    await desk.page.fill('input[name=username]', staff.phone);
    await desk.page.fill('input[name=password]', staff.password);
    await desk.page.getByRole('button', { name: '绑定', exact: true }).click();
    await desk.page.waitForURL((u) => u.pathname === '/staff');
    await waitHydrated(desk.page);
    await desk.page.locator('[data-section=bind-codes]').click();
    await desk.page.waitForURL((u) => u.pathname === '/staff/bindCodes');
    await waitHydrated(desk.page);
    const option = desk.page.locator('select[name=teacherId] option', { hasText: teacher.name });
    await desk.page.selectOption('select[name=teacherId]', (await option.getAttribute('value'))!);
    await desk.page.getByRole('button', { name: '发放绑定码' }).click();
    const code = (await desk.page.locator('[data-code]').innerText()).trim();
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    await expect.poll(() => desk.page.locator('[data-code-list] [data-status=live]').count()).toBe(1);

    // the teacher's phone, another WeChat user: types the code and is logged in as the teacher
    const phone = await browser.newPage({ baseURL: server.url });
    await phone.page.goto(`/api/dev/wechat/identity?as=o_teacher_${stamp}`);
    await gotoHydrated(phone.page, '/bindPage/teacherBind');
    expect((await phone.context.cookies()).find((c) => c.name === 'openId')?.value, 'the silent login left an open id here').toBeTruthy();
    await phone.page.fill('input[name=bindCode]', `${code.slice(0, 4)}-${code.slice(4)}`.toLowerCase());
    await phone.page.getByRole('button', { name: '绑定', exact: true }).click();
    // the bind result is the teacher's home (decision 097)
    await phone.page.waitForURL((u) => u.pathname === '/bindPage/teacherHome');
    await expect.poll(() => phone.page.getByRole('heading', { level: 1 }).innerText()).toContain(teacher.name);
    const token = (await phone.context.cookies()).find((c) => c.name === 'token')?.value;
    const me = await (await fetch(`${server.url}/api/customers/me`, { headers: { 'Authorization-token': token! } })).json();
    expect(me.data).toMatchObject({ role: 'teacher', phone: teacher.phone });

    // a new browser session of the teacher's WeChat: the silent login logs the teacher in
    const again = await browser.newPage({ baseURL: server.url });
    await again.page.goto(`/api/dev/wechat/identity?as=o_teacher_${stamp}`);
    await gotoHydrated(again.page, '/bindPage');
    await expect.poll(() => again.page.locator('[data-current-binding=teacher]').innerText()).toContain(`已绑定为老师：${teacher.name}`);
    expect(await again.page.getByRole('link', { name: '进入老师主页' }).getAttribute('href')).toBe('/bindPage/teacherHome');

    // the staff console is not the teacher's: the page is answered 403 and says why
    again.allowError(/status of 403/);
    const answer = await gotoHydrated(again.page, '/staff');
    expect(answer?.status()).toBe(403);
    await expect.poll(() => again.page.locator('[data-not-staff]').innerText()).toContain('此页面仅供门店员工使用');

    // the front desk sees the code used
    await desk.page.reload();
    await waitHydrated(desk.page);
    await expect.poll(() => desk.page.locator('[data-code-list] [data-status=used]').count()).toBe(1);
  });
});
