/**
 * The CSRF call as every remote makes it (spec point 7): `GET calls.csrfToken` answers a plain-text
 * token bound to the browser by a cookie; a state-changing call sends it back as `X-CSRF-Token`. The
 * token stays valid as long as the cookie, so a page fetches it once and again only when a call is
 * refused with 403 (the cookie was replaced or expired). One implementation for every remote.
 */

/** The request header carrying the token. */
export const CSRF_TOKEN_HEADER = 'X-CSRF-Token';

/** Tokens being fetched or fetched, per `fetch` function and token URL: one per page (a test's own `fetch` gets its own). */
const tokens = new WeakMap<typeof fetch, Map<string, Promise<string>>>();

async function requestToken(fetchFn: typeof fetch, url: string): Promise<string> {
  const response = await fetchFn(url, { method: 'GET', credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new Error(`CSRF token request failed with status ${response.status}`);
  const token = (await response.text()).trim();
  if (!token) throw new Error('CSRF token response was empty');
  return token;
}

/**
 * The page's CSRF token from `url` (`calls.csrfToken`): fetched on the first call, then the same
 * promise; `fresh` fetches a new one (after a 403). A failed fetch is forgotten, so the next call
 * tries again.
 */
export function csrfToken(fetchFn: typeof fetch, url: string, { fresh = false }: { fresh?: boolean } = {}): Promise<string> {
  let byUrl = tokens.get(fetchFn);
  if (!byUrl) tokens.set(fetchFn, (byUrl = new Map()));
  const known = byUrl.get(url);
  if (known && !fresh) return known;
  const pending = requestToken(fetchFn, url);
  byUrl.set(url, pending);
  pending.catch(() => {
    if (byUrl.get(url) === pending) byUrl.delete(url);
  });
  return pending;
}

/**
 * Sends a state-changing request with the page's CSRF token (`X-CSRF-Token`, from `tokenUrl`); on a
 * 403 the token is fetched again and the request sent once more. Resolves to the (last) response.
 */
export async function fetchWithCsrfToken(fetchFn: typeof fetch, tokenUrl: string, url: string, init: RequestInit): Promise<Response> {
  const send = (token: string) => {
    const headers = new Headers(init.headers);
    headers.set(CSRF_TOKEN_HEADER, token);
    return fetchFn(url, { credentials: 'same-origin', ...init, headers });
  };
  const response = await send(await csrfToken(fetchFn, tokenUrl));
  if (response.status !== 403) return response;
  await response.body?.cancel().catch(() => undefined);
  return send(await csrfToken(fetchFn, tokenUrl, { fresh: true }));
}
