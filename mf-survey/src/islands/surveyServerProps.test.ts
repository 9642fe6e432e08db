import { describe, expect, it } from 'vitest';
import { listArticles, listSurveys } from '@khs/content';
import type { IslandContentReader } from 'contracts';
import { surveyByHandle, surveyServerProps } from './surveyServerProps.js';

const withSurvey = listArticles().find((article) => article.surveyHandle)!;
const withoutSurvey = listArticles().find((article) => !article.surveyHandle)!;
const content: IslandContentReader = { article: (id) => listArticles().find((article) => article.id === id), image: () => undefined };

describe("the Survey island reads its article's survey itself (serverProps)", () => {
  it("answers the survey the page's article names, from the content's survey file", () => {
    const survey = surveyByHandle(withSurvey.surveyHandle!)!;
    expect(surveyServerProps({ articleId: withSurvey.id }, { content })).toEqual({ formHandle: survey.formHandle, question: survey.question, answers: survey.answers });
  });

  it('knows every survey of the content (built in, as @khs/content reads them)', () => {
    expect(listSurveys().map((survey) => surveyByHandle(survey.formHandle))).toEqual(listSurveys());
  });

  it('has nothing to show for an article without a survey, an unknown article, no article id or no content', () => {
    expect(surveyServerProps({ articleId: withoutSurvey.id }, { content })).toBeNull();
    expect(surveyServerProps({ articleId: 'no-such-article' }, { content })).toBeNull();
    expect(surveyServerProps({}, { content })).toBeNull();
    expect(surveyServerProps({ articleId: withSurvey.id }, {})).toBeNull();
  });

  it('keeps the props of a page that names the survey itself', () => {
    expect(surveyServerProps({ formHandle: 'x', question: 'q', answers: [] }, { content })).toEqual({});
  });
});
