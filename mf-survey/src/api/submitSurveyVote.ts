import type { CallUrls } from 'contracts';
import { fetchCsrfToken } from './fetchCsrfToken.js';
import { surveyCallUrl } from './surveyCallUrl.js';

/**
 * Sends the visitor's answer: fetches a CSRF token, then POSTs `{ answerPosition }` with
 * `X-CSRF-Token`. Resolves when the server accepted it (201 counted, or 200 when this browser
 * had already voted); rejects on any other answer or a network failure.
 */
export async function submitSurveyVote(
  fetchFn: typeof fetch,
  calls: Pick<CallUrls, 'csrfToken' | 'surveySubmit'>,
  formHandle: string,
  answerPosition: number,
  signal?: AbortSignal,
): Promise<void> {
  const token = await fetchCsrfToken(fetchFn, calls.csrfToken);
  const response = await fetchFn(surveyCallUrl(calls.surveySubmit, formHandle), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-Token': token },
    body: JSON.stringify({ answerPosition }),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new Error(`Survey submission failed with status ${response.status}`);
}
