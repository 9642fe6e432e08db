/**
 * What the survey widget needs from the browser. Passed in so tests and the standalone page
 * can swap them; `browserSurveyServices()` gives the real ones.
 */
export interface SurveyServices {
  fetch: typeof fetch;
  /** Where the submitted-survey list lives; `null` when the browser has no local storage. */
  storage: Storage | null;
  /** Where failures are logged. */
  logger: Pick<Console, 'error'>;
}
