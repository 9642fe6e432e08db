import type { SurveyAnswer } from 'contracts';

/**
 * Island props the server renders into `data-props`. In the `article.after-body` slot: the
 * article's id only (`articleId`); the survey comes from the server render's state, or — when
 * the server render failed — from this slice's service. A page may name the survey itself
 * (`formHandle`, and `question` and `answers`, else read from the fallback markup inside the island).
 */
export interface SurveyIslandProps {
  /** The article whose survey to show. */
  articleId?: string;
  formHandle?: string;
  question?: string;
  answers?: SurveyAnswer[];
}

export function isAnswerList(value: unknown): value is SurveyAnswer[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (answer) =>
        typeof answer === 'object' &&
        answer !== null &&
        Number.isInteger((answer as SurveyAnswer).position) &&
        typeof (answer as SurveyAnswer).label === 'string',
    )
  );
}
