import type { I18nTexts } from 'contracts';

/** Every text the survey widget shows. */
export interface SurveyTexts {
  /** Submit button. From `i18n.surveySubmit`. */
  submit: string;
  /** Submit button while the vote is being sent. */
  submitting: string;
  /** Shown when the vote could not be sent (the visitor can try again). */
  submitFailed: string;
  /**
   * Shown when the vote was refused for too many votes from the visitor's address (an office, a
   * carrier): `{wait}` becomes "40 seconds" / "3 minutes", `{time}` the clock time to try again at.
   */
  submitRateLimited: string;
  /** Shown while the results load. */
  resultsLoading: string;
  /** Shown when the results could not be loaded. */
  resultsFailed: string;
  /** Button that loads the results again. */
  resultsRetry: string;
  /** Accessible name of the results list. */
  resultsLabel: string;
  /** Screen-reader summary; `{results}` becomes "label 40%, label 60%". */
  resultsSummary: string;
}

/** English defaults for the texts the page config does not carry (yet). */
export const DEFAULT_SURVEY_TEXTS: Omit<SurveyTexts, 'submit'> = {
  submitting: 'Sending…',
  submitFailed: 'Your vote could not be sent. Please try again.',
  submitRateLimited: 'Many votes came from your network just now, so yours was not counted. Please try again in {wait} (at {time}).',
  resultsLoading: 'Loading results…',
  resultsFailed: 'The results could not be loaded.',
  resultsRetry: 'Show results',
  resultsLabel: 'Results',
  resultsSummary: 'Results: {results}.',
};

/**
 * The widget's texts from the page's i18n: `surveySubmit` for the button; the others are taken
 * from i18n keys named `survey<Text>` (e.g. `surveySubmitFailed`) when the shell provides them,
 * else the English defaults.
 */
export function surveyTexts(i18n: I18nTexts): SurveyTexts {
  const provided = i18n as unknown as Record<string, unknown>;
  const pick = (key: keyof typeof DEFAULT_SURVEY_TEXTS) => {
    const value = provided[`survey${key.charAt(0).toUpperCase()}${key.slice(1)}`];
    return typeof value === 'string' && value.length > 0 ? value : DEFAULT_SURVEY_TEXTS[key];
  };
  return {
    submit: i18n.surveySubmit,
    submitting: pick('submitting'),
    submitFailed: pick('submitFailed'),
    submitRateLimited: pick('submitRateLimited'),
    resultsLoading: pick('resultsLoading'),
    resultsFailed: pick('resultsFailed'),
    resultsRetry: pick('resultsRetry'),
    resultsLabel: pick('resultsLabel'),
    resultsSummary: pick('resultsSummary'),
  };
}
