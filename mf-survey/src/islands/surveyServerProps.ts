import type { Article } from '@khs/content';
import type { IslandServerContext, IslandServerProps, Survey } from 'contracts';
import { validateSurvey } from '@khs/content';
import surveyFile from '@khs/content/data/surveys.json';

/** The site's surveys by handle (the content's survey file, built in: surveys are code-reviewed data). */
const SURVEYS: ReadonlyMap<string, Survey> = new Map((surveyFile as unknown[]).map(validateSurvey).map((survey) => [survey.formHandle, survey]));

/** The survey with this handle, or undefined. */
export function surveyByHandle(formHandle: string): Survey | undefined {
  return SURVEYS.get(formHandle);
}

/**
 * What the Survey island renders on the shell's server: the survey of the page's article (its slot
 * gives the article's id; the article, from `context.content`, names its survey), read by this
 * slice itself. `null` (nothing to show) for an article without a survey. Props of a page that
 * names the survey itself (`formHandle`) are kept as they are.
 */
export function surveyServerProps(props: Record<string, unknown>, { content }: Pick<IslandServerContext, 'content'>): IslandServerProps {
  if (typeof props.formHandle === 'string') return {};
  const article = typeof props.articleId === 'string' ? (content?.article(props.articleId) as Article | undefined) : undefined;
  const survey = article?.surveyHandle ? surveyByHandle(article.surveyHandle) : undefined;
  return survey ? { formHandle: survey.formHandle, question: survey.question, answers: survey.answers } : null;
}
