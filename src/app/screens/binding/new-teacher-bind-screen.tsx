import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo } from 'react';
import { type LoaderFunctionArgs, useLoaderData, useNavigate } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { bindingNewTeacherMachine } from '../../../../machines/binding-new-teacher.machine';
import { Errors } from '../../../domain/errors';
import { FIELD_LABELS } from '../../../domain/fields';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { actorTimers } from '../../app-clock';
import { refusalMessage } from '../../ui/refusal-message';
import { CodeButton, CodeField, FormMessage } from '../auth/code-button';
import { smsCodeWithApi, useSmsCode } from '../auth/sms-code';
import { NoOpenId } from './bind-parts';

interface Choices {
  clubs: Array<{ id: number; name: string }>;
  styles: Array<{ value: string; label: string }>;
}

/** The clubs and styles the form offers. */
export async function loader({ context }: LoaderFunctionArgs): Promise<Choices> {
  const api = apiFrom(context);
  const [c, s] = await Promise.all([api.catalog.clubs(), api.catalog.dict('style')]);
  return { clubs: c.code === 200 ? c.data.map((x) => ({ id: x.id, name: x.name })) : [], styles: s.code === 200 ? s.data : [] };
}

/** A chosen photo as a data URL (the server reads its type from the bytes and caps its size). */
const readPhoto = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });

/** /bindPage/newteacherBind: a teacher not yet in the system asks to be added and bound (spec §5, decision 028). */
export default function NewTeacherBindScreen() {
  const { clubs, styles } = useLoaderData() as Choices;
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const logic = useMemo(
    () =>
      bindingNewTeacherMachine.provide({
        actors: { smsCode: smsCodeWithApi(), sendRequest: fromPromise(({ input }) => browserApiOrThrow().binding.newTeacher(input)) },
        actions: { requestSent: () => void navigate('/bindPage/newteacherConfirm', { replace: true }) },
      }),
    [navigate],
  );
  const form = useActorRef(logic, actorTimers());
  const c = useSelector(form, (s) => s.context);
  const busy = useSelector(form, (s) => s.matches({ active: 'sending' }) || s.status === 'done');
  const noOpenId = useSelector(form, (s) => s.matches({ active: { editing: 'noOpenId' } }));
  const feedback = useSelector(form, (s) => {
    if (s.matches({ active: { editing: 'incomplete' } }) && s.context.missing) {
      const label = FIELD_LABELS[s.context.missing];
      return { ...Errors.fillForm.message, values: { field: label ? i18n._(label) : s.context.missing } };
    }
    if (s.matches({ active: { editing: 'phoneInvalid' } })) return Errors.invalidPhone.message;
    if (s.matches({ active: { editing: 'refused' } })) return refusalMessage(s.context.errorCode);
    if (s.matches({ active: { editing: 'unreachable' } })) return Errors.network.message;
    return undefined;
  });
  const { sending, remaining, problem } = useSmsCode(form);
  const message = feedback ?? problem;

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        form.send({ type: 'request.submit' });
      }}
    >
      <Block className="!mt-6 !mb-2 text-sm text-black/60">
        <Trans>尚未录入系统的老师请填写资料，门店确认后即绑定本微信。</Trans>
      </Block>
      <List strong inset className="!my-3">
        <LabelledInput
          label={<Trans>姓名</Trans>}
          type="text"
          name="name"
          value={c.name}
          onChange={(e: { target: { value: string } }) => form.send({ type: 'request.name.change', value: e.target.value })}
        />
        <LabelledInput
          label={<Trans>手机号</Trans>}
          type="tel"
          name="phone"
          value={c.phone}
          onChange={(e: { target: { value: string } }) => form.send({ type: 'request.phone.change', value: e.target.value })}
        />
        <CodeField
          name="smsCode"
          value={c.smsCode}
          onChange={(value) => form.send({ type: 'request.code.change', value })}
          button={<CodeButton sending={sending} remaining={remaining} onSend={() => form.send({ type: 'request.code.send' })} />}
        />
        <LabelledInput
          label={<Trans>门店</Trans>}
          type="select"
          name="clubId"
          value={c.clubId === null ? '' : String(c.clubId)}
          onChange={(e: { target: { value: string } }) =>
            form.send({ type: 'request.club.change', clubId: e.target.value ? Number(e.target.value) : null })
          }
        >
          <option value="">{t`请选择门店`}</option>
          {clubs.map((x) => (
            <option key={x.id} value={String(x.id)}>
              {x.name}
            </option>
          ))}
        </LabelledInput>
      </List>
      <fieldset className="mx-4 my-3 rounded-xl bg-white p-3">
        <legend className="px-1 text-sm text-black/60">
          <Trans>擅长的课程类型</Trans>
        </legend>
        <div className="flex flex-wrap gap-2">
          {styles.map((s) => (
            <label key={s.value} className="inline-flex min-h-11 items-center gap-1 rounded-full border border-black/15 px-3 text-sm">
              <input
                type="checkbox"
                name="styles"
                value={s.value}
                checked={c.styles.includes(s.value)}
                onChange={() => form.send({ type: 'request.style.toggle', style: s.value })}
              />
              {s.label}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="mx-4 my-3 block rounded-xl bg-white p-3 text-sm">
        <span className="text-black/60">
          <Trans>本人正面照片</Trans>
        </span>
        <input
          className="mt-2 block"
          type="file"
          name="photo"
          accept="image/jpeg,image/png,image/webp"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void readPhoto(f).then((photo) => form.send({ type: 'request.photo.change', photo }));
          }}
        />
        {c.photo ? (
          <span className="mt-1 block text-xs text-emerald-700" data-photo-chosen>
            <Trans>已选择照片</Trans>
          </span>
        ) : null}
      </label>
      {noOpenId ? <NoOpenId from="/bindPage/newteacherBind" /> : <FormMessage>{message ? i18n._(message) : undefined}</FormMessage>}
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={busy}>
          {busy ? <Trans>提交中…</Trans> : <Trans>提交申请</Trans>}
        </Button>
      </Block>
    </form>
  );
}
