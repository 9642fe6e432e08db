import type { CallUrls, SurveyAnswer } from 'contracts';
import { surveyCallUrl } from './surveyCallUrl.js';

/** Percentages by answer position. */
export type SurveyPercentages = Record<number, number>;

/**
 * Reads a results body (`{ "<position>": percent }`) for the given answers. Every answer must
 * have a finite number from 0 to 100; anything else means the response is not results.
 */
export function parseSurveyResults(body: unknown, answers: SurveyAnswer[]): SurveyPercentages {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error('Survey results are not an object');
  }
  const record = body as Record<string, unknown>;
  const percentages: SurveyPercentages = {};
  for (const answer of answers) {
    const value = record[String(answer.position)];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
      throw new Error(`Survey results lack a percentage for answer ${answer.position}`);
    }
    percentages[answer.position] = Math.round(value);
  }
  return percentages;
}

/** Loads the survey's results (spec point 7: GET with Accept JSON). */
export async function loadSurveyResults(
  fetchFn: typeof fetch,
  calls: Pick<CallUrls, 'surveyResults'>,
  formHandle: string,
  answers: SurveyAnswer[],
  signal?: AbortSignal,
): Promise<SurveyPercentages> {
  const response = await fetchFn(surveyCallUrl(calls.surveyResults, formHandle), {
    method: 'GET',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { Accept: 'application/json' },
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new Error(`Survey results request failed with status ${response.status}`);
  return parseSurveyResults(await response.json(), answers);
}
