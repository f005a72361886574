import { SURVEY_SKIP_DAYS } from './limits';
import { daysAfter } from './time';

/**
 * The survey rules (spec §9: skip for SURVEY_SKIP_DAYS days), pure: the server decides with them.
 * A member's row for a survey holds an answer (optionId) or a skip (skipUntil), or does not exist.
 */
export interface SurveyAnswerFacts {
  optionId: number | null;
  skipUntil: Date | null;
}

/** Whether the survey is shown to the member now: never answered, and not skipped until later. */
export function surveyOpen(answer: SurveyAnswerFacts | null | undefined, now: Date): boolean {
  if (!answer) return true;
  return answer.optionId === null && (answer.skipUntil === null || answer.skipUntil.getTime() <= now.getTime());
}

/** Until when a skip made now hides the survey. */
export function surveySkippedUntil(now: Date): Date {
  return daysAfter(now, SURVEY_SKIP_DAYS);
}
