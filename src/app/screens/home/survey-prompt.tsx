import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { Survey } from '../../../api/catalog';
import { browserApiOrThrow } from '../../api-context';
import { useIsMember } from '../../session/session-provider';
import { useToast } from '../../ui/toast';

/**
 * The survey prompt of the Homepage (GET/POST /survey), members only. It floats above the footer once
 * the page has loaded (never pushing the content, never blocking the rest of the page); its close
 * button puts it off for 7 days.
 */
export function SurveyPrompt() {
  const isMember = useIsMember();
  const toast = useToast();
  const { t } = useLingui();
  const [survey, setSurvey] = useState<Survey | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!isMember) {
      setSurvey(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      browserApiOrThrow()
        .catalog.survey()
        .then((r) => live && r.code === 200 && setSurvey(r.data))
        .catch(() => {});
    }, 800);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [isMember]);

  const send = async (body: { optionId: number } | { skip: true }) => {
    if (!survey || sending) return;
    setSending(true);
    try {
      const r = await browserApiOrThrow().catalog.answerSurvey({ surveyId: survey.id, ...body });
      if ('optionId' in body && r.code === 200) toast(t`感谢您的反馈`);
    } catch {
      /* a lost answer only means the prompt comes back later */
    } finally {
      setSending(false);
      setSurvey(null);
    }
  };

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
        <button type="button" data-survey-skip aria-label={t`暂不回答，7天内不再提示`} disabled={sending} onClick={() => void send({ skip: true })} className="-mt-1 -mr-1 shrink-0 p-1 text-xl leading-none text-black/40">
          ×
        </button>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        {survey.options.map((o) => (
          <button
            key={o.id}
            type="button"
            disabled={sending}
            onClick={() => void send({ optionId: o.id })}
            className="rounded-full border border-primary/40 px-3 py-1 text-sm text-primary active:bg-primary/10"
          >
            {o.label}
          </button>
        ))}
      </div>
    </aside>
  );
}
