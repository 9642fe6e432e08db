import { fetchWithCsrfToken, type CallUrls, type SurveyAnswer } from 'contracts';
import { parseSurveyResults, type SurveyPercentages } from './loadSurveyResults.js';
import { surveyCallUrl } from './surveyCallUrl.js';

/** A vote refused for the address's rate (429): `retryAt` is when one may be sent again (epoch ms). */
export class SurveyVoteRateLimited extends Error {
  constructor(readonly retryAt: number) {
    super('Survey submission refused: too many votes from this address');
    this.name = 'SurveyVoteRateLimited';
  }
}

/**
 * When a `Retry-After` value (whole seconds, or an HTTP date) allows the next try, as epoch ms from
 * `now`; a missing or unreadable value: a minute from now.
 */
export function retryAtOf(retryAfter: string | null, now: number): number {
  const value = retryAfter?.trim() ?? '';
  if (/^\d+$/.test(value)) return now + Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? now + 60_000 : Math.max(now, date);
}

/**
 * Sends the visitor's answer: POSTs `{ answerPosition }` with the page's CSRF token (contracts
 * `fetchWithCsrfToken`: fetched once per page, again only after a 403). Resolves to the results the
 * service computed after the vote (its answer's `results`), so nothing else is asked for; rejects on
 * a status other than 201 (counted) or 200 (this browser had voted), a network failure, or an
 * answer without results for every answer; a 429 (too many votes from the address) rejects with
 * `SurveyVoteRateLimited`, saying when to try again (its `Retry-After`).
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
  if (response.status === 429) throw new SurveyVoteRateLimited(retryAtOf(response.headers.get('retry-after'), Date.now()));
  if (!response.ok) throw new Error(`Survey submission failed with status ${response.status}`);
  const body = (await response.json()) as { results?: unknown };
  return parseSurveyResults(body?.results, answers);
}
