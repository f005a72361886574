import { describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, passwordToken, shanghaiTomorrow } from './support/booking';
import { baseUrl, useBrowser } from './support/browser';

const member1 = demoAccounts.find((a) => a.phone === '13800000001')!;

interface ScheduleItem {
  id: number;
  state: string;
  startsAt: string;
}

/**
 * Issue 16, "every tap shows its effect": a tap whose answer has to come over the network shows at
 * once that it was taken. Measured as the member meets it on a slow network, without a clock: the
 * network's answer is held, and the page must already show the tap's effect while it is held.
 * The booking's confirm (its dialog is a chunk of its own) showed nothing for 0.85 s on a slow
 * network: now its backdrop shows on the tap, and the dialog follows when the chunk arrives.
 */
describe('a tap shows its effect before the network answers (issue 16)', () => {
  const browser = useBrowser();

  it("booking: the confirm's backdrop shows on the tap while its dialog is still on its way; going back books nothing", async () => {
    const token = await passwordToken(baseUrl(), member1.phone, member1.password);
    const schedule = await api<ScheduleItem[]>(baseUrl(), `/customers/classes/schedule?date=${shanghaiTomorrow()}&type=regular`, { token });
    const cls = schedule.data.find((c) => c.state === 'bookable');
    expect(cls, 'a class member 1 can book tomorrow').toBeTruthy();

    const { page } = await browser.newPage();
    // the dialog's chunk is held until the test lets it go
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked = false;
    await page.route('**/assets/confirm-view-*.js', async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto(`${baseUrl()}/login`);
    const r = await page.context().request.post('/api/oauth/login', { data: { username: member1.phone, password: member1.password, loginType: 'password' } });
    expect(r.status()).toBe(200);
    await page.goto(`${baseUrl()}/takecourse/bookcourse/bookcourseconfirm?id=${cls!.id}`);
    await page.locator('[data-card-choice]').waitFor();
    await page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await page.locator('[data-action=submit-booking]').click();
    // the tap's effect, with the dialog's chunk still held
    await page.locator('[data-confirm-loading]').waitFor();
    expect(asked, 'the chunk was asked for').toBe(true);
    expect(await page.getByRole('button', { name: '返回' }).count()).toBe(0);
    release();
    await page.getByRole('button', { name: '返回' }).last().click();
    await expect.poll(() => page.locator('[data-confirm-loading]').count()).toBe(0);
    const mine = await api<{ list: Array<{ class: { id: number } }> }>(baseUrl(), '/customers/classes/mine?scope=upcoming&pagesize=50', { token });
    expect(mine.data.list.map((b) => b.class.id)).not.toContain(cls!.id);
  });
});
