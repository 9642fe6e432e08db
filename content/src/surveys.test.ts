import { describe, expect, it } from 'vitest';
import { getSurvey, listArticles, listSurveys, validateSurvey } from './index.js';

describe('surveys', () => {
  const surveys = listSurveys();

  it('holds at least 8 surveys with unique handles', () => {
    expect(surveys.length).toBeGreaterThanOrEqual(8);
    expect(new Set(surveys.map((s) => s.formHandle)).size).toBe(surveys.length);
  });

  it('numbers the 2-5 answers of each survey 1..n', () => {
    for (const survey of surveys) {
      expect(survey.answers.length).toBeGreaterThanOrEqual(2);
      expect(survey.answers.length).toBeLessThanOrEqual(5);
      expect(survey.answers.map((a) => a.position)).toEqual(survey.answers.map((_, i) => i + 1));
      expect(survey.question.endsWith('?')).toBe(true);
    }
  });

  it('looks surveys up by handle', () => {
    const first = surveys[0];
    expect(getSurvey(first?.formHandle as string)).toEqual(first);
    expect(getSurvey('unknown-handle')).toBeUndefined();
  });

  it('has every survey referenced by at least one article', () => {
    const used = new Set(listArticles().map((a) => a.surveyHandle));
    for (const survey of surveys) expect(used.has(survey.formHandle), survey.formHandle).toBe(true);
  });

  it('rejects malformed surveys naming the field', () => {
    const good = { formHandle: 'x', question: 'Q?', answers: [{ position: 1, label: 'a' }, { position: 2, label: 'b' }] };
    expect(validateSurvey(good)).toEqual(good);
    expect(() => validateSurvey({ ...good, formHandle: '' })).toThrow(/"formHandle"/);
    expect(() => validateSurvey({ ...good, answers: [{ position: 1, label: 'a' }] })).toThrow(/"answers" must be an array of 2 to 5/);
    expect(() => validateSurvey({ ...good, answers: [{ position: 1, label: 'a' }, { position: 3, label: 'b' }] })).toThrow(
      /"answers\[1\]\.position" must be 2/,
    );
  });
});
