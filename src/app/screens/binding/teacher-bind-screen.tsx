import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { bindingTeacherMachine } from '../../../../machines/binding-teacher.machine';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { FormMessage } from '../auth/code-button';
import { NoOpenId, useHandOver } from './bind-parts';

/** /bindPage/teacherBind: a teacher binds with the code staff gave them (spec §5, decision 028). */
export default function TeacherBindScreen() {
  const { i18n, t } = useLingui();
  const handOver = useHandOver('/bindPage/teacherHome');
  const logic = useMemo(
    () =>
      bindingTeacherMachine.provide({
        actors: { bindTeacher: fromPromise(({ input }) => browserApiOrThrow().binding.bindTeacher(input.code)) },
        actions: { handOver: (_, params) => handOver(params.envelope) },
      }),
    [handOver],
  );
  const bind = useActorRef(logic);
  const code = useSelector(bind, (s) => s.context.code);
  const busy = useSelector(bind, (s) => s.matches('binding') || s.status === 'done');
  const noOpenId = useSelector(bind, (s) => s.matches({ editing: 'noOpenId' }));
  const feedback = useSelector(bind, (s) => {
    if (s.matches({ editing: 'codeMissing' })) return Errors.bindCodeMissing.message;
    if (s.matches({ editing: 'codeMalformed' })) return Errors.bindCodeInvalid.message;
    if (s.matches({ editing: 'refused' })) return refusalMessage(s.context.errorCode);
    if (s.matches({ editing: 'unreachable' })) return Errors.network.message;
    return undefined;
  });

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        bind.send({ type: 'bind.submit' });
      }}
    >
      <Block className="!mt-6 !mb-2 text-sm text-black/60">
        <Trans>请输入门店工作人员给您的8位绑定码。绑定后，用本微信打开即以老师身份登录。</Trans>
      </Block>
      <List strong inset className="!my-3">
        <LabelledInput
          label={<Trans>绑定码</Trans>}
          type="text"
          name="bindCode"
          autoComplete="off"
          placeholder={t`例如 ABCD-2345`}
          value={code}
          onChange={(e: { target: { value: string } }) => bind.send({ type: 'bind.code.change', value: e.target.value })}
        />
      </List>
      {noOpenId ? <NoOpenId from="/bindPage/teacherBind" /> : <FormMessage>{feedback ? i18n._(feedback) : undefined}</FormMessage>}
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={busy}>
          {busy ? <Trans>绑定中…</Trans> : <Trans>绑定</Trans>}
        </Button>
      </Block>
    </form>
  );
}
