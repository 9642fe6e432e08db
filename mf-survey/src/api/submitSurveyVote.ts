import { fetchWithCsrfToken, type CallUrls, type SurveyAnswer } from 'contracts';
import { parseSurveyResults, type SurveyPercentages } from './loadSurveyResults.js';
import { surveyCallUrl } from './surveyCallUrl.js';

/**
 * Sends the visitor's answer: POSTs `{ answerPosition }` with the page's CSRF token (contracts
 * `fetchWithCsrfToken`: fetched once per page, again only after a 403). Resolves to the results the
 * service computed after the vote (its answer's `results`), so nothing else is asked for; rejects on
 * a status other than 201 (counted) or 200 (this browser had voted), a network failure, or an
 * answer without results for every answer.
 */
export async function submitSurveyVote(
  fetchFn: typeof fetch,
  calls: Pick<CallUrls, 'csrfToken' | 'surveySubmit'>,
  formHandle: string,
  answerPosition: number,
  answers: SurveyAnswer[],
  signal?: AbortSignal,
): Promise<SurveyPercentages> {
  const response = await fetchWithCsrfToken(fetchFn, calls.csrfToken, surveyCallUrl(calls.surveySubmit, formHandle), {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ answerPosition }),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new Error(`Survey submission failed with status ${response.status}`);
  const body = (await response.json()) as { results?: unknown };
  return parseSurveyResults(body?.results, answers);
}
