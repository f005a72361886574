import { createRoute } from '@hono/zod-openapi';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import { SURVEY_SKIP_DAYS } from '../../domain/limits';
import { surveyOpen, surveySkippedUntil } from '../../domain/survey';
import { surveyAnswers, surveyOptions, surveys } from '../db/schema/index';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { loc } from '../services/catalog';
import { SurveyAnswerIn, SurveyOut, SurveyState } from '../../contracts/catalog';

/** Spec §7 GET/POST /survey: a member sees an open survey until answering; a skip hides it 7 days. */
export const survey = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags: ['survey'],
      summary: 'The survey to show the caller now, or null',
      middleware: [requireAuth] as const,
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: envelope(SurveyOut.nullable()) } } },
        401: refusals[401],
      },
    }),
    async (c) => {
      const { db, clock } = c.var.deps;
      const caller = c.var.caller!;
      const rows = await db
        .select({ s: surveys, a: surveyAnswers })
        .from(surveys)
        .leftJoin(surveyAnswers, and(eq(surveyAnswers.surveyId, surveys.id), eq(surveyAnswers.accountId, caller.accountId)))
        .where(eq(surveys.active, true))
        .orderBy(asc(surveys.id));
      const now = clock.now();
      const open = rows.find(({ a }) => surveyOpen(a, now));
      if (!open) return ok(c, null);
      const options = await db
        .select()
        .from(surveyOptions)
        .where(eq(surveyOptions.surveyId, open.s.id))
        .orderBy(asc(surveyOptions.sort), asc(surveyOptions.id));
      return ok(c, {
        id: open.s.id,
        question: loc(c.var.locale, open.s.question, open.s.questionEn),
        options: options.map((o) => ({ id: o.id, label: loc(c.var.locale, o.label, o.labelEn) })),
      });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags: ['survey'],
      summary: `Answer the survey with an option, or skip it for ${SURVEY_SKIP_DAYS} days`,
      middleware: [requireAuth] as const,
      request: { body: { required: true, content: { 'application/json': { schema: SurveyAnswerIn } } } },
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: envelope(SurveyState) } } },
        400: refusals[400],
        401: refusals[401],
        404: refusals[404],
        409: refusals[409],
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { db, clock } = c.var.deps;
      const caller = c.var.caller!;
      const [s] = await db
        .select()
        .from(surveys)
        .where(and(eq(surveys.id, body.surveyId), eq(surveys.active, true)));
      if (!s) throw new ApiError(Errors.notFound);
      if (body.optionId !== undefined) {
        const [o] = await db
          .select()
          .from(surveyOptions)
          .where(and(eq(surveyOptions.id, body.optionId), eq(surveyOptions.surveyId, s.id)));
        if (!o) throw new ApiError(Errors.invalidField, { field: 'optionId', values: { field: 'optionId' } });
      }
      const now = clock.now();
      const values = {
        optionId: body.optionId ?? null,
        skipUntil: body.skip ? surveySkippedUntil(now) : null,
        updatedAt: now,
      };
      // One statement: an answer is final, so a row that already holds one is left alone (409).
      const [row] = await db
        .insert(surveyAnswers)
        .values({ surveyId: s.id, accountId: caller.accountId, ...values })
        .onConflictDoUpdate({
          target: [surveyAnswers.surveyId, surveyAnswers.accountId],
          set: values,
          setWhere: isNull(surveyAnswers.optionId),
        })
        .returning();
      if (!row) throw new ApiError(Errors.surveyAnswered);
      return ok(c, { surveyId: s.id, answered: row.optionId !== null, skipUntil: row.skipUntil?.toISOString() ?? null });
    },
  );
