import type { Survey } from 'contracts';
import { isAnswerList } from './surveyIslandProps.js';

/** Whether `value` is a whole survey (handle, question, answers), as the server hands it over or the service answers it. */
export function isSurvey(value: unknown): value is Survey {
  const survey = value as Partial<Survey> | null;
  return (
    typeof survey === 'object' &&
    survey !== null &&
    typeof survey.formHandle === 'string' &&
    survey.formHandle.length > 0 &&
    typeof survey.question === 'string' &&
    survey.question.trim().length > 0 &&
    isAnswerList(survey.answers)
  );
}

/** The server render's state: the survey it rendered, so the browser hydrates the same one. */
export interface SurveyServerState {
  survey: Survey;
}
