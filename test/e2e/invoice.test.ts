import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { pdfText } from '../server/invoices/pdf-text';
import { loginInPage } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { apiCall, buyable, memberToken, MEMBER } from './support/checkout';
import type { RunningServer } from './support/server';

const staff = demoAccounts.find((a) => a.role === 'staff')!;
const TITLE = '上海静心瑜伽文化有限公司';

describe('an invoice on phones (decision 044)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a member asks for an invoice for a paid order, staff issue it from the console, the member downloads the PDF', async () => {
    const base = server.url;
    // the demo member bought an open class with their balance
    const token = await memberToken(base);
    const open = await buyable(base, token, 'open');
    const orderNo = (
      await apiCall<{ orderNo: string }>(base, 'POST', '/orders/create', { token, body: { goodsId: open.id, agreementAccepted: true } })
    ).data.orderNo;
    expect((await apiCall(base, 'POST', '/orders/pay', { token, body: { orderNo, method: 'balance' } })).code).toBe(200);

    const { page } = await browser.newPage({ baseURL: base, acceptDownloads: true });
    await loginInPage(page, base, MEMBER.phone, MEMBER.password, '/invoice');
    const order = page.locator('[data-invoice-orders] label', { hasText: orderNo });
    await order.waitFor();

    // a taxpayer number with a wrong check character is said by its field, nothing sent
    await order.locator('input[type=checkbox]').check();
    await page.fill('input[name=title]', TITLE);
    await page.fill('input[name=taxNumber]', '91350100M000100Y44');
    await page.getByRole('button', { name: '提交申请' }).click();
    await expect.poll(() => page.locator('[data-field-error="taxNumber"]').innerText()).toBe('纳税人识别号校验位不正确，请核对');
    await expect.poll(() => page.locator('[data-field-error="address"]').innerText()).toBe('请填写地址');

    await page.fill('input[name=taxNumber]', '91350100M000100Y43');
    await page.fill('input[name=address]', '上海市静安区南京西路1266号');
    await page.getByRole('button', { name: '提交申请' }).click();
    const mine = page.locator('[data-invoice-list] [data-invoice]').first();
    await expect.poll(() => mine.getAttribute('data-invoice-state'), { timeout: 15_000 }).toBe('requested');
    expect(await mine.innerText()).toContain(TITLE);
    expect(await page.locator('[data-invoice-orders] label', { hasText: orderNo }).count()).toBe(0);
    const id = await mine.getAttribute('data-invoice');

    // staff, on their own phone, issue it from the console
    const desk = await browser.newPage({ baseURL: base });
    await loginInPage(desk.page, base, staff.phone, staff.password, '/staff/invoices');
    const row = desk.page.locator(`[data-staff-invoice="${id}"]`);
    await expect.poll(() => row.innerText()).toContain(TITLE);
    await row.getByRole('button', { name: '开具' }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);

    // the member sees it issued with its number, and downloads the PDF
    await gotoHydrated(page, `${base}/invoice`);
    const issued = page.locator(`[data-invoice="${id}"]`);
    await expect.poll(() => issued.getAttribute('data-invoice-state')).toBe('issued');
    const number = (await issued.locator('[data-invoice-number]').innerText()).match(/FP\d{16}/)?.[0];
    expect(number).toBeTruthy();
    const [download] = await Promise.all([page.waitForEvent('download'), issued.locator('[data-invoice-pdf]').click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toContain(number!);
    // the title and the number are text a reader extracts, every character with a glyph
    const text = (await pdfText(bytes)).join('');
    expect(text).toContain(TITLE);
    expect(text).toContain(number!);
    expect(text).not.toMatch(/[\uFFFD\uFFFF]/);
  });
});
