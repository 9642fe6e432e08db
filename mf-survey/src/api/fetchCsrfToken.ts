/**
 * Fetches a CSRF token (spec point 7: plain text from `calls.csrfToken`). The server binds it
 * to this browser with a cookie, so the request keeps credentials same-origin.
 */
export async function fetchCsrfToken(fetchFn: typeof fetch, url: string): Promise<string> {
  const response = await fetchFn(url, { method: 'GET', credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new Error(`CSRF token request failed with status ${response.status}`);
  const token = (await response.text()).trim();
  if (!token) throw new Error('CSRF token response was empty');
  return token;
}
