import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { catalogSurveyPromptMachine } from '../../../../../machines/catalog-survey-prompt.machine';
import { actorTimers } from '../../../app-clock';
import { browserApiOrThrow } from '../../../api-context';
import { useIsMember } from '../../../session/session-provider';
import { useToast } from '../../../ui/toast';

const thanksMsg = msg`感谢您的反馈`;
const skipLabel = msg`暂不回答，7天内不再提示`;

/**
 * The survey prompt of the Homepage (GET/POST /survey) through the survey-prompt machine, members
 * only. It floats above the footer once the page has loaded (never pushing the content, never
 * blocking the rest of the page); its close button puts it off for 7 days. A new session (login,
 * logout) starts it again.
 */
export function SurveyPrompt() {
  const isMember = useIsMember();
  return <SurveyPromptFor key={isMember ? 'member' : 'visitor'} member={isMember} />;
}

function SurveyPromptFor(props: { member: boolean }) {
  const { i18n } = useLingui();
  const toast = useToast();
  const logic = useMemo(
    () =>
      catalogSurveyPromptMachine.provide({
        actors: {
          loadSurvey: fromPromise(() => browserApiOrThrow().catalog.survey()),
          sendAnswer: fromPromise(({ input }) => browserApiOrThrow().catalog.answerSurvey(input)),
        },
        actions: { thank: () => void toast(i18n._(thanksMsg)) },
      }),
    [toast, i18n],
  );
  const prompt = useActorRef(logic, { input: { member: props.member }, ...actorTimers() });
  const survey = useSelector(prompt, (s) => (s.matches('showing') || s.matches('sending') ? s.context.survey : undefined));
  const sending = useSelector(prompt, (s) => s.matches('sending'));

  if (!survey) return null;
  return (
    <aside
      aria-labelledby="survey-q"
      data-survey
      className="fixed inset-x-3 bottom-[calc(72px+env(safe-area-inset-bottom))] z-30 rounded-2xl bg-white p-4 shadow-[0_4px_24px_rgba(0,0,0,.15)]"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id="survey-q" className="text-[15px] font-semibold">
          <span className="mr-1.5 rounded bg-primary/10 px-1 text-xs font-normal text-primary">
            <Trans>小调查</Trans>
          </span>
          {survey.question}
        </h2>
        <button
          type="button"
          data-survey-skip
          aria-label={i18n._(skipLabel)}
          disabled={sending}
          onClick={() => prompt.send({ type: 'survey.skip' })}
          className="-mt-1 -mr-1 shrink-0 p-1 text-xl leading-none text-black/60"
        >
          ×
        </button>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        {survey.options.map((o) => (
          <button
            key={o.id}
            type="button"
            disabled={sending}
            onClick={() => prompt.send({ type: 'survey.answer', optionId: o.id })}
            className="rounded-full border border-primary/40 px-3 py-1 text-sm text-primary active:bg-primary/10"
          >
            {o.label}
          </button>
        ))}
      </div>
    </aside>
  );
}
