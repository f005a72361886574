import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, loginInPage, shanghaiTomorrow } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { apiCall, MEMBER, myCards } from './support/checkout';
import { png } from './support/png';
import type { RunningServer } from './support/server';
import { devSmsCode } from './support/sms';

/** The demo front-desk staff (seed/people.ts). */
const STAFF = { phone: '13800000005', password: 'staff1234' };
/** A resident ID number with a valid check character (test/server/cards/transfer-support.ts). */
const ID_NUMBER = '11010519491231002X';
const RECIPIENT = '13912348888';

interface Offer {
  operation: string;
  allowed: boolean;
}
interface ScheduleItem {
  id: number;
  state: string;
  usesCost: number;
  classType: string;
}

let server: RunningServer;
beforeAll(async () => {
  // a fresh seed: this file moves a card from one member to another
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('card transfer in the browser (decision 026)', () => {
  const { newPage } = useBrowser();

  it('a member applies to transfer a card, staff approve it, and the recipient sees the card and books a class with it', async () => {
    // the recipient: a member who logged in once by SMS code
    const recipient = await newPage({ baseURL: server.url });
    await recipient.page.context().request.get(`/api/oauth/valid-code?phone=${RECIPIENT}`);
    const login = await recipient.page.context().request.post('/api/oauth/login', {
      data: { username: RECIPIENT, password: await devSmsCode(server.url, RECIPIENT), loginType: 'code' },
    });
    expect(((await login.json()) as { code: number }).code).toBe(200);
    // who has given their real name (personal information): the lookup shows it masked to the giver
    const info = await recipient.page.context().request.put('/api/customers/person-info', {
      headers: { 'authorization-token': ((await login.json()) as { token: string }).token },
      data: { realName: '李小明', idNumber: ID_NUMBER, yogaAge: 1, styles: ['hatha'], practiceTime: 'evening', salutation: '小明' },
    });
    expect(((await info.json()) as { code: number }).code).toBe(200);

    // the sender's card that may be transferred now (the server's offers say which)
    const sender = await newPage({ baseURL: server.url });
    const token = (
      (await (
        await sender.page
          .context()
          .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } })
      ).json()) as { token: string }
    ).token;
    let cardId = 0;
    for (const c of await myCards(server.url, token)) {
      const d = await apiCall<{ offers: Offer[] }>(server.url, 'GET', `/customers/cards/detail?id=${c.id}`, { token });
      if (d.data.offers.some((o) => o.operation === 'transfer' && o.allowed)) {
        cardId = c.id;
        break;
      }
    }
    expect(cardId, 'a card of the demo member that may be transferred').toBeGreaterThan(0);
    const card = (await myCards(server.url, token)).find((c) => c.id === cardId)!;

    // card page → the rules and the policy → the application
    await gotoHydrated(sender.page, `/mine/carddetail?id=${cardId}`);
    await sender.page.locator('[data-action=transfer]').click();
    await sender.page.waitForURL((u) => u.pathname === '/mine/transfer');
    await sender.page.locator('label:has(input[name=agreed])').first().click();
    await sender.page.locator('a[data-action=transfer-continue]').click();
    await sender.page.waitForURL((u) => u.pathname === '/mine/transferapply');
    await sender.page.locator('[data-transfer-form], [data-transfer-apply]').first().waitFor();
    // the recipient's phone first: the server answers a masked name
    await sender.page.fill('input[name=phone]', RECIPIENT);
    await sender.page.locator('[data-action=transfer-lookup]').click();
    await expect.poll(() => sender.page.locator('[data-transfer-recipient]').innerText(), { timeout: 10_000 }).toContain('**明');
    await sender.page.fill('input[name=name]', '李小明');
    await sender.page.fill('input[name=idNumber]', ID_NUMBER);
    await sender.page.setInputFiles('input[name=idPhoto]', { name: 'id.png', mimeType: 'image/png', buffer: png(64, 40, [5, 7, 120]) });
    await sender.page.setInputFiles('input[name=photo]', { name: 'me.png', mimeType: 'image/png', buffer: png(48, 64, [2, 11, 60]) });
    await expect.poll(() => sender.page.locator('[data-image-chosen]').count()).toBe(2);
    await sender.page.locator('[data-action=transfer-submit]').click();
    await sender.page.waitForURL((u) => u.pathname === '/mine/transferstate');
    await expect.poll(() => sender.page.locator('[data-transfer-state]').getAttribute('data-transfer-state')).toBe('pending');

    // the front desk takes it for review and approves it
    const desk = await newPage({ baseURL: server.url });
    await loginInPage(desk.page, server.url, STAFF.phone, STAFF.password, '/staff/transfers');
    const application = desk.page.locator('[data-transfer]', { hasText: card.name }).first();
    await application.waitFor();
    const applicationId = await application.getAttribute('data-transfer');
    await application.getByRole('button', { name: '开始审核' }).click();
    await expect.poll(() => application.getAttribute('data-state')).toBe('reviewing');
    await application.getByRole('button', { name: '通过', exact: true }).click();
    // the confirm names the card and from whom to whom before anything is sent (decision 102)
    const asked = desk.page.getByRole('dialog');
    await expect.poll(() => asked.innerText()).toContain(card.name);
    await asked.getByRole('button', { name: '确定转让' }).click();
    // decided, it leaves the queue of applications waiting for review
    await expect.poll(() => desk.page.locator(`[data-transfer="${applicationId}"]`).count()).toBe(0);
    expect(await desk.page.locator('[role=alert]').count()).toBe(0);

    // the sender sees it approved, and the card no longer theirs to use
    await gotoHydrated(sender.page, `/mine/transferstate?id=${cardId}`);
    await expect.poll(() => sender.page.locator('[data-transfer-state]').getAttribute('data-transfer-state')).toBe('approved');

    // the recipient has the card among theirs
    await gotoHydrated(recipient.page, '/vipcard?tab=mine');
    const received = recipient.page.locator('[data-my-card]', { hasText: card.name }).first();
    await received.waitFor();
    const receivedId = Number(await received.getAttribute('data-my-card'));
    expect(receivedId).not.toBe(cardId);

    // and books a class with it
    const tomorrow = shanghaiTomorrow();
    const day = (await api<ScheduleItem[]>(server.url, `/customers/classes/schedule?date=${tomorrow}`)).data;
    const cls = day.find((c) => c.state === 'bookable' && c.usesCost === 1 && ['regular', 'small-group', 'open'].includes(c.classType));
    expect(cls, 'a group class tomorrow with a seat').toBeDefined();
    await gotoHydrated(recipient.page, `/takecourse/bookcourse/bookcoursedetail?id=${cls!.id}`);
    await recipient.page.locator('[data-action=book]').click();
    await recipient.page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcourseconfirm');
    const choice = recipient.page.locator(`[data-card="${receivedId}"]`);
    await expect.poll(() => choice.getAttribute('data-usable')).toBe('true');
    await choice.click();
    await recipient.page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await recipient.page.locator('[data-action=submit-booking]').click();
    await recipient.page.getByRole('button', { name: '确定' }).last().click();
    await recipient.page.locator('[data-booking-result=booked]').waitFor();
  });
});
