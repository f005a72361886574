import { describe, expect, it } from 'vitest';
import { SURVEY_SKIP_DAYS } from '../../../src/domain/limits';
import { startTestServer } from '../support/harness';
import { EN, level1, level2, tokenFor } from './support';

const DAY = 86_400_000;

describe('survey (GET/POST /api/survey)', async () => {
  const s = await startTestServer({ seed: true });
  const t1 = await tokenFor(s, level1.phone);
  const t2 = await tokenFor(s, level2.phone);

  it('is for members only: 401 without a valid token', async () => {
    expect((await s.call('GET', '/api/survey')).status).toBe(401);
    const post = await s.call('POST', '/api/survey', { body: { surveyId: 1, skip: true } });
    expect(post.status).toBe(401);
    expect(post.body).toMatchObject({ code: 401, status: false });
  });

  it('shows the open survey with its options in the request language', async () => {
    const r = await s.call('GET', '/api/survey', { token: t1 });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: 1, question: expect.stringMatching(/\p{Script=Han}/u) });
    expect(r.body.data.options.length).toBeGreaterThan(1);
    const en = await s.call('GET', '/api/survey', { token: t1, headers: EN });
    expect(en.body.data.question).toBe('How did you hear about us?');
  });

  it(`hides a skipped survey for ${SURVEY_SKIP_DAYS} days, then shows it again (injected clock)`, async () => {
    const start = s.clock.now();
    try {
      const skip = await s.call('POST', '/api/survey', { token: t1, body: { surveyId: 1, skip: true } });
      expect(skip.status).toBe(200);
      expect(skip.body.data).toMatchObject({ surveyId: 1, answered: false });
      expect(Date.parse(skip.body.data.skipUntil)).toBe(start.getTime() + SURVEY_SKIP_DAYS * DAY);
      expect((await s.call('GET', '/api/survey', { token: t1 })).body.data).toBeNull();
      // another member still sees it
      expect((await s.call('GET', '/api/survey', { token: t2 })).body.data).not.toBeNull();
      s.clock.advance(SURVEY_SKIP_DAYS * DAY - 60_000);
      expect((await s.call('GET', '/api/survey', { token: t1 })).body.data).toBeNull();
      s.clock.advance(60_000);
      expect((await s.call('GET', '/api/survey', { token: t1 })).body.data).toMatchObject({ id: 1 });
    } finally {
      s.clock.set(start);
    }
  });

  it('takes an answer once: the survey is gone, a second answer or skip is 409', async () => {
    const survey = (await s.call('GET', '/api/survey', { token: t2 })).body.data;
    const optionId = survey.options[0].id;
    const r = await s.call('POST', '/api/survey', { token: t2, body: { surveyId: survey.id, optionId } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ surveyId: survey.id, answered: true, skipUntil: null });
    expect((await s.call('GET', '/api/survey', { token: t2 })).body.data).toBeNull();
    const again = await s.call('POST', '/api/survey', { token: t2, body: { surveyId: survey.id, optionId } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 70020, status: false });
    const skip = await s.call('POST', '/api/survey', { token: t2, body: { surveyId: survey.id, skip: true } });
    expect(skip.status).toBe(409);
    s.clock.advance(365 * DAY);
    try {
      expect((await s.call('GET', '/api/survey', { token: t2 })).body.data).toBeNull();
    } finally {
      s.clock.advance(-365 * DAY);
    }
  });

  it('answers 404 for an unknown survey', async () => {
    const r = await s.call('POST', '/api/survey', { token: t1, body: { surveyId: 99, skip: true } });
    expect(r.status).toBe(404);
  });

  it.each([
    [{ surveyId: 1 }, 'optionId'],
    [{ surveyId: 1, optionId: 1, skip: true }, 'optionId'],
    [{ surveyId: 1, optionId: 999 }, 'optionId'],
    [{ surveyId: 1, optionId: 'one' }, 'optionId'],
    [{ surveyId: 1, skip: false }, 'skip'],
    [{ optionId: 1 }, 'surveyId'],
    [{ surveyId: -1, skip: true }, 'surveyId'],
  ])('refuses body %j with 400 naming %s', async (body, field) => {
    const r = await s.call('POST', '/api/survey', { token: t1, body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, status: false, field });
  });

  it('refuses a body that is not JSON with 400', async () => {
    const r = await s.call('POST', '/api/survey', { token: t1, raw: '{not json' });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe(false);
  });
});
