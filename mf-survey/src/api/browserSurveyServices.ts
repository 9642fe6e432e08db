import { browserStorage } from '../storage/submittedSurveys.js';
import type { SurveyServices } from './surveyServices.js';

/** The real browser services: `fetch`, local storage, console. */
export function browserSurveyServices(): SurveyServices {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    storage: browserStorage(),
    logger: console,
  };
}
