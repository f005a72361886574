import { describe, expect, it } from 'vitest';
import { SURVEY_SKIP_DAYS } from '../../src/domain/limits';
import { surveyOpen, surveySkippedUntil } from '../../src/domain/survey';

const now = new Date('2026-11-29T02:00:00Z');

describe('survey rules (spec §9)', () => {
  it('shows a survey the member never answered or skipped', () => {
    expect(surveyOpen(undefined, now)).toBe(true);
    expect(surveyOpen(null, now)).toBe(true);
    expect(surveyOpen({ optionId: null, skipUntil: null }, now)).toBe(true);
  });

  it('never shows an answered survey again, skipped before or not', () => {
    expect(surveyOpen({ optionId: 3, skipUntil: null }, now)).toBe(false);
    expect(surveyOpen({ optionId: 3, skipUntil: new Date('2026-11-01T00:00:00Z') }, now)).toBe(false);
  });

  it('hides a skipped survey until its skip ends, and shows it from that instant', () => {
    const until = surveySkippedUntil(now);
    expect(until.getTime() - now.getTime()).toBe(SURVEY_SKIP_DAYS * 24 * 3_600_000);
    expect(surveyOpen({ optionId: null, skipUntil: until }, new Date(until.getTime() - 1))).toBe(false);
    expect(surveyOpen({ optionId: null, skipUntil: until }, until)).toBe(true);
  });
});
