import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, BlockTitle, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useEffect, useMemo, useRef } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { personInfoMachine, type PersonDetails } from '../../../../machines/person-info.machine';
import type { PersonInfoPage } from '../../../api/person';
import { dictLabel, TIMES_OF_DAY, type TimeOfDay } from '../../../domain/catalog';
import { Errors } from '../../../domain/errors';
import { SALUTATION_MAX } from '../../../domain/limits';
import { refusalMessage } from '../../ui/refusal-message';
import { browserApiOrThrow, apiFrom } from '../../api-context';
import { useToast } from '../../ui/toast';
import { FormMessage } from '../auth/code-button';
import { PersonInfoView } from './person-info-view';

/** What is stored (masked) and the styles to choose from. */
export async function loader({ context }: LoaderFunctionArgs): Promise<PersonInfoPage> {
  const r = await apiFrom(context).person.info();
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return r.data;
}

/** What each field-error tag of the person-info chart says; `unreachable` is the network error. */
const FEEDBACK = {
  nameInvalid: Errors.realNameInvalid.message,
  idFormat: Errors.idNumberFormat.message,
  idBirthDate: Errors.idNumberBirthDate.message,
  idCheckDigit: Errors.idNumberCheckDigit.message,
  unreachable: Errors.network.message,
} as const;
/** The field a refusal's code is about (the server names the same ones); none: said under the form. */
const FIELDS_OF_CODE: Record<number, PersonField[]> = {
  [Errors.realNameInvalid.code]: ['realName'],
  [Errors.idNumberFormat.code]: ['idNumber'],
  [Errors.idNumberBirthDate.code]: ['idNumber'],
  [Errors.idNumberCheckDigit.code]: ['idNumber'],
  // the name and the ID number together were used by a transfer or refund
  [Errors.identityLocked.code]: ['realName', 'idNumber'],
};
const FIELDS_OF_TAG: Partial<Record<keyof typeof FEEDBACK, PersonField[]>> = {
  nameInvalid: ['realName'],
  idFormat: ['idNumber'],
  idBirthDate: ['idNumber'],
  idCheckDigit: ['idNumber'],
};
type PersonField = 'realName' | 'idNumber';
const YEARS = Array.from({ length: 31 }, (_, i) => i);
const savedMsg = msg`个人信息已保存`;

/**
 * /mine/improvePersonInfo (requiresLogin; spec §3, §5; decision 032): the personal-information form
 * through the person-info machine, or what is stored, masked, with "edit".
 */
export default function PersonInfoScreen() {
  const page = useLoaderData() as PersonInfoPage;
  const { i18n } = useLingui();
  const toast = useToast();
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  const logic = useMemo(
    () => personInfoMachine.provide({ actors: { saveInfo: fromPromise(({ input }) => browserApiOrThrow().person.save(input)) } }),
    [],
  );
  const flow = useActorRef(logic, { input: { stored: page.info, today: page.today } });
  const viewing = useSelector(flow, (s) => s.matches('viewing'));
  const saving = useSelector(flow, (s) => s.matches('saving'));
  const c = useSelector(flow, (s) => s.context);
  const problem = useSelector(
    flow,
    (s): { text: MessageDescriptor; fields: PersonField[] } | undefined => {
      if (s.hasTag('refused')) return { text: refusalMessage(s.context.errorCode), fields: FIELDS_OF_CODE[s.context.errorCode!] ?? [] };
      const k = (Object.keys(FEEDBACK) as (keyof typeof FEEDBACK)[]).find((tag) => s.hasTag(tag));
      return k ? { text: FEEDBACK[k], fields: FIELDS_OF_TAG[k] ?? [] } : undefined;
    },
    (a, b) => a?.text === b?.text && a?.fields.join() === b?.fields.join(),
  );
  const feedback = problem ? i18n._(problem.text) : undefined;
  const invalid = problem?.fields ?? [];
  const formRef = useRef<HTMLFormElement>(null);
  const invalidKey = invalid.join();
  // Konsta's ListInput puts no aria attributes on its input: they are set here, and the first
  // field the problem is about gets the focus, so the member lands where the fix is
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const name of ['realName', 'idNumber'] as const) {
      const el = form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
      if (!el) continue;
      const bad = invalidKey.split(',').includes(name);
      if (bad) {
        el.setAttribute('aria-invalid', 'true');
        el.setAttribute('aria-describedby', `${invalidKey.split(',')[0]}-error`);
      } else {
        el.removeAttribute('aria-invalid');
        el.removeAttribute('aria-describedby');
      }
    }
    if (invalidKey) form.querySelector<HTMLInputElement>(`input[name="${invalidKey.split(',')[0]}"]`)?.focus();
  }, [invalidKey, feedback]);
  const fieldError = (name: PersonField) =>
    feedback && invalid[0] === name ? (
      <span role="alert" id={`${name}-error`} data-field-error={name}>
        {feedback}
      </span>
    ) : undefined;
  const first = useRef(c.stored);
  useEffect(() => {
    if (c.stored !== first.current) toast(i18n._(savedMsg));
    first.current = c.stored;
  }, [c.stored, toast, i18n]);

  if (viewing && c.stored)
    return <PersonInfoView info={c.stored} styleOptions={page.styleOptions} onEdit={() => flow.send({ type: 'info.edit' })} />;

  const details = (d: Partial<PersonDetails>) => flow.send({ type: 'details.change', details: d });
  return (
    <form
      ref={formRef}
      noValidate
      data-person-form
      onSubmit={(e) => {
        e.preventDefault();
        flow.send({ type: 'info.save' });
      }}
    >
      {c.stored && (
        <Block className="!my-3 text-sm text-black/60">
          <Trans>修改个人信息时，请重新填写真实姓名和身份证号。</Trans>
        </Block>
      )}
      <List strong inset className="!my-3">
        <LabelledInput
          label={<Trans>真实姓名</Trans>}
          name="realName"
          autoComplete="name"
          placeholder={i18n._(msg`请输入真实姓名`)}
          value={c.realName}
          disabled={saving}
          error={fieldError('realName')}
          onChange={(e: { target: { value: string } }) => flow.send({ type: 'realName.change', value: e.target.value })}
        />
        <LabelledInput
          label={<Trans>身份证号</Trans>}
          name="idNumber"
          placeholder={i18n._(msg`18位居民身份证号`)}
          value={c.idNumber}
          disabled={saving}
          error={fieldError('idNumber')}
          onChange={(e: { target: { value: string } }) => flow.send({ type: 'idNumber.change', value: e.target.value })}
        />
      </List>
      <BlockTitle>
        <Trans>练习偏好（选填）</Trans>
      </BlockTitle>
      <Block strong inset className="!my-2 space-y-3 text-sm">
        <label className="flex items-center justify-between gap-2">
          <Trans>瑜伽练习年限</Trans>
          <select
            name="yogaAge"
            className="rounded border px-2 py-1"
            value={c.yogaAge === null ? '' : String(c.yogaAge)}
            disabled={saving}
            onChange={(e) => details({ yogaAge: e.target.value === '' ? null : Number(e.target.value) })}
          >
            <option value="">{i18n._(msg`未填写`)}</option>
            {YEARS.map((y) => (
              <option key={y} value={y}>
                {y === 0 ? <Trans>不到1年</Trans> : <Trans>{y}年</Trans>}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend className="mb-1">
            <Trans>喜欢的课程类型（可多选）</Trans>
          </legend>
          <div className="flex flex-wrap gap-2">
            {page.styleOptions.map((o) => (
              <label
                key={o.value}
                className={`rounded-full border px-3 py-1 ${c.styles.includes(o.value) ? 'border-primary bg-primary/10 text-primary' : 'border-black/20'}`}
              >
                <input
                  type="checkbox"
                  name="styles"
                  value={o.value}
                  className="sr-only"
                  checked={c.styles.includes(o.value)}
                  disabled={saving}
                  onChange={(e) => details({ styles: e.target.checked ? [...c.styles, o.value] : c.styles.filter((v) => v !== o.value) })}
                />
                {dictLabel(o, locale)}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex items-center justify-between gap-2">
          <Trans>练习时间</Trans>
          <select
            name="practiceTime"
            className="rounded border px-2 py-1"
            value={c.practiceTime ?? ''}
            disabled={saving}
            onChange={(e) => details({ practiceTime: e.target.value === '' ? null : (e.target.value as TimeOfDay) })}
          >
            <option value="">{i18n._(msg`未填写`)}</option>
            {TIMES_OF_DAY.map((t) => (
              <option key={t.value} value={t.value}>
                {dictLabel(t, locale)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center justify-between gap-2">
          <Trans>希望的称呼</Trans>
          <input
            name="salutation"
            className="w-32 rounded border px-2 py-1"
            maxLength={SALUTATION_MAX}
            placeholder={i18n._(msg`如：王老师`)}
            value={c.salutation}
            disabled={saving}
            onChange={(e) => details({ salutation: e.target.value })}
          />
        </label>
      </Block>
      <FormMessage>{invalid.length === 0 ? feedback : undefined}</FormMessage>
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={saving}>
          {saving ? <Trans>提交中…</Trans> : <Trans>保存</Trans>}
        </Button>
      </Block>
    </form>
  );
}
