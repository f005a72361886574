import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Sheet } from 'konsta/react';
import { useEffect, useState } from 'react';
import type { Survey } from '../../../api/catalog';
import { browserApiOrThrow } from '../../api-context';
import { useIsMember } from '../../session/session-provider';
import { useToast } from '../../ui/toast';

/**
 * The survey prompt of the Homepage (GET/POST /survey), members only. It comes up as a sheet over the
 * page once the page has loaded, so it never pushes the content; "not now" hides it for 7 days.
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

  return (
    <Sheet opened={!!survey} onBackdropClick={() => void send({ skip: true })} className="pb-[env(safe-area-inset-bottom)]">
      {survey && (
        <div className="p-4" role="dialog" aria-labelledby="survey-q">
          <p className="text-xs text-black/50">
            <Trans>小调查</Trans>
          </p>
          <h2 id="survey-q" className="mt-1 text-base font-semibold">
            {survey.question}
          </h2>
          <div className="mt-3 grid grid-cols-2 gap-2">
            {survey.options.map((o) => (
              <Button key={o.id} outline rounded disabled={sending} onClick={() => void send({ optionId: o.id })}>
                {o.label}
              </Button>
            ))}
          </div>
          <button type="button" className="mt-3 w-full py-2 text-sm text-black/50" disabled={sending} onClick={() => void send({ skip: true })}>
            <Trans>暂不回答（7天内不再提示）</Trans>
          </button>
        </div>
      )}
    </Sheet>
  );
}
