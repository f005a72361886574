// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { accounts, personInfo } from '../../src/server/db/schema/index';
import { newCard, newMember } from '../server/booking/support';
import { ID_NUMBER } from '../server/cards/transfer-support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * Who the phone belongs to, on /mine/transferapply (decision 053): a recipient who signed up in the
 * app has no account name, so the lookup shows the masked real name of their personal information;
 * one with neither is said to have given no name (check the phone), in Chinese and in English, and the
 * form is still offered. Before, both showed a lone "*".
 */
const h = await startScreenHarness({ seed: true });
let phones = 0;

/** A member who signed up in the app (no account name), with a real name stored or not. */
async function recipient(realName?: string): Promise<string> {
  const phone = `1350000${String(++phones).padStart(4, '0')}`;
  const now = h.server.clock.now();
  const [row] = await h.server.deps.db
    .insert(accounts)
    .values({ phone, name: null, role: 'member', createdAt: now })
    .returning({ id: accounts.id });
  if (realName)
    await h.server.deps.db.insert(personInfo).values({ accountId: row!.id, realName, idNumber: ID_NUMBER, createdAt: now, updatedAt: now });
  return phone;
}

async function lookUp(phone: string, locale: 'zh' | 'en' = 'zh') {
  const m = await newMember(h.server);
  const card = await newCard(h.server, m.id);
  h.jar.setClientCookie('token', m.token);
  const ui = await h.open(`/mine/transferapply?id=${card.id}`, { locale });
  await ui.user.type(document.querySelector<HTMLInputElement>('[data-transfer-apply] input[name="phone"]')!, phone);
  await ui.user.click(document.querySelector<HTMLButtonElement>('[data-action="transfer-lookup"]')!);
  await screen.findByText((_, el) => el?.hasAttribute('data-transfer-form') === true);
}

describe("the transfer's recipient lookup on the screen", () => {
  it('a recipient with a real name stored and no account name: their masked real name', async () => {
    await lookUp(await recipient('王小明'));
    expect(document.querySelector('[data-transfer-recipient]')?.textContent).toBe('受让会员：**明');
    expect(document.querySelector('[data-transfer-recipient-unnamed]')).toBeNull();
  });

  it('a recipient with neither: "has not given a name, check the phone", and no lone "*"', async () => {
    await lookUp(await recipient());
    expect(screen.getByRole('status').textContent).toBe('该会员尚未填写姓名，请核对手机号是否为受让人本人');
    expect(document.querySelector('[data-transfer-recipient]')).toBeNull();
  });

  it('the same in English', async () => {
    await lookUp(await recipient(), 'en');
    expect(screen.getByRole('status').textContent).toBe(
      'This member has not given a name yet: check that the phone number is the recipient’s',
    );
  });
});
