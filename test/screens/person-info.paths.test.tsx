// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { expect } from 'vitest';
import { personInfoMachine, type PersonInfoContext } from '../../machines/person-info.machine';
import { maskName } from '../../src/domain/card-transfer';
import { idNumberProblem, maskIdNumber, validRealName } from '../../src/domain/identity';
import { shanghaiDate } from '../../src/domain/time';
import { newCard, newMember } from '../server/booking/support';
import { applyFor, phoneOf } from '../server/cards/transfer-support';
import { personRow } from '../server/support/sealed-rows';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * /mine/improvePersonInfo (spec §3 personal information, §5 real name and ID number; decision 032):
 * a member with nothing stored fills the form, each wrong field said (the real name; the ID number's
 * shape, birth date or check character), and after saving sees it masked; a member whose name and ID
 * number a transfer has used edits again, and a new name or ID number is refused by the server
 * (70104: through staff). The checks below are the spec's, on the screen and the server.
 */
const h = await startScreenHarness({ seed: true });

const ID = '110101199003071233';
/** well-formed with a right check character, but born in 2090: after today, as the server decides it */
const UNBORN = '110101209001011233';
/** the server's calendar day, which the form checks the birth date against */
const today = () => shanghaiDate(h.server.clock.now());
/** what the 'used' world holds: another person's name and ID number, already used by a transfer */
const HELD = {
  realName: '李四',
  idNumber: '310115198506152343',
  yogaAge: 5,
  styles: ['power'],
  practiceTime: 'morning' as const,
  salutation: '李老师',
};
const DETAILS = { yogaAge: 3, styles: ['hatha', 'yin'], practiceTime: 'evening' as const, salutation: '小明' };
const BLANK = { yogaAge: null as number | null, styles: [] as string[], practiceTime: null as string | null, salutation: '' };
const saved = { code: 200, status: true, data: null };
const locked = { code: 70104, status: false, data: null };

interface Member {
  token: string;
  accountId: number;
  world: string;
  /** what the member typed last into the name and ID fields, and what the detail fields should hold */
  typed: { realName: string; idNumber: string };
  form: typeof BLANK;
  /** whether save was tapped since the form last changed (a field's problem is said only then) */
  saveTapped: boolean;
  /** the row the server should hold (null: none) */
  expected: Record<string, unknown> | null;
}
type W = World<Member>;

const field = (name: string) => document.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-person-form] [name="${name}"]`);
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const saveButton = () => document.querySelector<HTMLButtonElement>('[data-person-form] button[type="submit"]');
const row = async (w: W) => (await personRow(h.server.deps, w.accountId)) ?? null;
const saves = (w: W) => sentBy(w, 'saveInfo');

async function change(el: Element, value: string) {
  await act(async () => {
    fireEvent.change(el, { target: { value } });
  });
}

/** what the server holds is what the path expects (nothing, the world's, or what was saved) */
async function serverHolds(w: W) {
  const r = await row(w);
  if (w.expected === null) return expect(r).toBe(null);
  expect(r).toMatchObject(w.expected);
}

/** on the form, with this feedback, the save button ready, nothing held */
function form(w: W, feedback: string | null) {
  expect(w.ui.path()).toBe('/mine/improvePersonInfo');
  expect(alertText()).toBe(feedback);
  expect(saveButton()?.textContent).toBe('保存');
  expect(saveButton()?.disabled).toBe(false);
  expect(w.held.get('saveInfo') ?? []).toEqual([]);
}

/** said under this field, which is marked invalid and has the focus; the other one is not marked */
function atField(name: 'realName' | 'idNumber', text: string, alsoInvalid: string[] = []) {
  expect(document.querySelector(`[data-field-error="${name}"]`)?.textContent).toBe(text);
  expect(field(name)?.getAttribute('aria-invalid')).toBe('true');
  expect(field(name)?.getAttribute('aria-describedby')).toBe(`${name}-error`);
  expect(document.activeElement, 'the first invalid field has the focus').toBe(field(name));
  for (const other of ['realName', 'idNumber'].filter((f) => f !== name))
    expect(field(other)?.getAttribute('aria-invalid')).toBe(alsoInvalid.includes(other) ? 'true' : null);
}
/** no field is marked */
function noFieldMarked() {
  for (const f of ['realName', 'idNumber']) expect(field(f)?.getAttribute('aria-invalid')).toBe(null);
  expect(document.querySelector('[data-field-error]')).toBe(null);
}

defineScreenPaths<Member>(h, {
  machine: personInfoMachine,
  screen: '/mine/improvePersonInfo',
  inputs: {
    'nothing stored': { stored: null, today: today() },
    'used by a transfer': {
      today: today(),
      stored: {
        realName: '*四',
        idNumber: maskIdNumber(HELD.idNumber),
        yogaAge: 5,
        styles: ['power'],
        practiceTime: 'morning',
        salutation: '李老师',
        identityLocked: true,
      },
    },
  },
  cases: {
    'realName.change': [{ value: '12345' }, { value: ' 王小明 ' }],
    'idNumber.change': [
      { value: '1101011990' },
      { value: '110101199013071233' },
      { value: '110101199003071234' },
      { value: UNBORN },
      { value: ID.slice(0, 17) + '3' },
    ],
    'details.change': [{ details: DETAILS }],
    'xstate.done.actor.saveInfo': [
      { output: saved, answer: { server: true } },
      { output: locked, answer: { server: true } },
    ],
    'xstate.error.actor.saveInfo': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as PersonInfoContext;
    const used = c.stored?.realName === '*四';
    // each field typed once, in the form's order: the name, then the ID number (once the name is right), then the details (once both are)
    if (e.type === 'realName.change') return c.realName === '';
    if (e.type === 'idNumber.change') return c.idNumber === '' && validRealName(c.realName);
    if (e.type === 'details.change') return !c.styles.includes('yin') && idNumberProblem(c.idNumber, today()) === null && c.realName !== '';
    // edit what the world holds (after a save the form is the one just tested)
    if (e.type === 'info.edit') return used;
    // the server refuses a new name and ID number where a transfer used the stored ones, and only there
    if (e.type === 'xstate.done.actor.saveInfo') return ((e as unknown as { output: typeof saved }).output.code === 200) === !used;
    return true;
  },
  project: (c: PersonInfoContext) => ({
    stored: c.stored?.realName ?? null,
    name: c.realName,
    id: c.idNumber,
    details: c.styles.length,
    errorCode: c.errorCode ?? null,
  }),
  requests: { saveInfo: { method: 'PUT', path: /^\/api\/customers\/person-info$/ } },

  async start(hh, input) {
    const m = await newMember(hh.server);
    let expected: Member['expected'] = null;
    if (input === 'used by a transfer') {
      expect((await hh.server.call('PUT', '/api/customers/person-info', { token: m.token, body: HELD })).status).toBe(200);
      const giver = await newMember(hh.server);
      const card = await newCard(hh.server, giver.id);
      expect(
        (await applyFor(hh.server, giver.token, card.id, await phoneOf(hh.server, m.id), { name: HELD.realName, idNumber: HELD.idNumber }))
          .status,
      ).toBe(200);
      expected = HELD;
    }
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open('/mine/improvePersonInfo');
    return {
      ui,
      token: m.token,
      accountId: m.id,
      world: input,
      typed: { realName: '', idNumber: '' },
      form: { ...BLANK },
      expected,
      saveTapped: false,
    };
  },

  events: {
    'realName.change': async (w, e) => {
      w.saveTapped = false;
      w.typed.realName = e.value as string;
      await change(field('realName')!, w.typed.realName);
    },
    'idNumber.change': async (w, e) => {
      w.saveTapped = false;
      w.typed.idNumber = e.value as string;
      await change(field('idNumber')!, w.typed.idNumber);
    },
    'details.change': async (w, e) => {
      const d = e.details as typeof DETAILS;
      await change(field('yogaAge')!, String(d.yogaAge));
      for (const el of document.querySelectorAll<HTMLInputElement>('[data-person-form] input[name="styles"]')) {
        if (el.checked !== d.styles.includes(el.value)) await w.ui.user.click(el);
      }
      await change(field('practiceTime')!, d.practiceTime);
      await change(field('salutation')!, d.salutation);
      w.form = { ...d };
      w.saveTapped = false;
    },
    'info.save': async (w) => {
      w.saveTapped = true;
      await w.ui.user.click(saveButton()!);
    },
    'info.edit': async (w) => {
      w.typed = { realName: '', idNumber: '' };
      w.saveTapped = false;
      w.form = { yogaAge: HELD.yogaAge, styles: HELD.styles, practiceTime: HELD.practiceTime, salutation: HELD.salutation };
      await w.ui.user.click(document.querySelector<HTMLButtonElement>('[data-action="person-edit"]')!);
    },
  },

  states: {
    // the stored information, masked as the server holds it; no form
    viewing: async (w) => {
      const last = saves(w).at(-1);
      if (last?.answer === 200) {
        w.expected = { realName: w.typed.realName.trim(), idNumber: w.typed.idNumber.trim(), ...(w.form as typeof DETAILS) };
        expect(screen.getByRole('status').textContent).toBe('个人信息已保存');
      }
      await serverHolds(w);
      const r = (await row(w))!;
      expect(r, 'something is stored').not.toBe(null);
      expect(document.querySelector('[data-person-form]')).toBe(null);
      const shown = (f: string) => document.querySelector(`[data-person-view] [data-field="${f}"]`)?.textContent;
      expect(shown('realName')).toBe(maskName(r.realName));
      expect(shown('idNumber')).toBe(maskIdNumber(r.idNumber));
      expect(document.body.textContent).not.toContain(r.idNumber);
      expect(shown('yogaAge')).toBe(r.yogaAge === null ? '未填写' : `${r.yogaAge}年`);
      expect(shown('practiceTime')).toBe({ evening: '晚上', morning: '上午', none: '未填写' }[r.practiceTime ?? 'none']);
      expect(shown('salutation')).toBe(r.salutation || '未填写');
      expect(shown('styles')).toBe(
        r.styles.map((k) => ({ hatha: '哈他瑜伽', yin: '阴瑜伽', power: '力量瑜伽' })[k]).join('、') || '未填写',
      );
      // the note that a change goes through staff shows exactly where a transfer used them
      expect(document.querySelector('[data-identity-locked]') !== null).toBe(w.world === 'used by a transfer');
      expect(document.querySelector('[data-action="person-edit"]')?.textContent).toBe('修改');
    },
    // the form holds what the member typed (and the details filled in); the server is unchanged
    editing: async (w) => {
      await serverHolds(w);
      expect(field('realName')?.value).toBe(w.typed.realName);
      expect(field('idNumber')?.value).toBe(w.typed.idNumber);
      expect(field('yogaAge')?.value).toBe(w.form.yogaAge === null ? '' : String(w.form.yogaAge));
      expect(
        [...document.querySelectorAll<HTMLInputElement>('[data-person-form] input[name="styles"]:checked')].map((el) => el.value).sort(),
      ).toEqual([...w.form.styles].sort());
      expect(field('practiceTime')?.value).toBe(w.form.practiceTime ?? '');
      expect(field('salutation')?.value).toBe(w.form.salutation);
      expect(document.querySelector('[data-person-view]')).toBe(null);
    },
    'editing.clean': (w) => {
      form(w, null);
      noFieldMarked();
    },
    // a field's problem is said only after save was tapped on the form as it is
    'editing.nameInvalid': (w) => {
      expect(w.saveTapped, 'save was tapped').toBe(true);
      form(w, '请填写真实姓名（不超过20个字，不能是数字）');
      atField('realName', '请填写真实姓名（不超过20个字，不能是数字）');
      expect(validRealName(w.typed.realName)).toBe(false);
    },
    'editing.idFormat': (w) => {
      expect(w.saveTapped, 'save was tapped').toBe(true);
      form(w, '身份证号应为18位（最后一位可以是X）');
      atField('idNumber', '身份证号应为18位（最后一位可以是X）');
      expect(validRealName(w.typed.realName)).toBe(true);
      expect(idNumberProblem(w.typed.idNumber, today())).toBe('format');
    },
    'editing.idBirthDate': (w) => {
      expect(w.saveTapped, 'save was tapped').toBe(true);
      form(w, '身份证号中的出生日期不正确');
      atField('idNumber', '身份证号中的出生日期不正确');
      expect(idNumberProblem(w.typed.idNumber, today())).toBe('birthDate');
    },
    'editing.idCheckDigit': (w) => {
      expect(w.saveTapped, 'save was tapped').toBe(true);
      form(w, '身份证号校验位不正确，请核对');
      atField('idNumber', '身份证号校验位不正确，请核对');
      expect(idNumberProblem(w.typed.idNumber, today())).toBe('checkDigit');
    },
    'editing.refused': (w) => {
      expect(saves(w).at(-1)?.answer, 'the server refused the last save').toBe(70104);
      form(w, '姓名和身份证号已用于转卡或退卡，如需修改请联系门店工作人员');
      // about both: said under the name, both marked
      atField('realName', '姓名和身份证号已用于转卡或退卡，如需修改请联系门店工作人员', ['idNumber']);
    },
    'editing.unreachable': (w) => {
      expect(saves(w).at(-1)?.answer, 'the last save was lost on the network').toBe('network');
      form(w, '网络无法连接');
      // about no field: said under the form
      noFieldMarked();
    },
    saving: async (w) => {
      expect(saveButton()?.textContent).toBe('提交中…');
      expect(saveButton()?.disabled).toBe(true);
      expect(alertText()).toBe(null);
      // exactly one request, with what the member typed, trimmed
      expect((w.held.get('saveInfo') ?? []).map((r) => r.body)).toEqual([
        { realName: w.typed.realName.trim(), idNumber: w.typed.idNumber.trim(), ...w.form },
      ]);
      await serverHolds(w);
    },
  },
});
