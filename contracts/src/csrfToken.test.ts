import { describe, expect, it } from 'vitest';
import { csrfToken, fetchWithCsrfToken } from './csrfToken.js';

/** A stand-in origin: hands out numbered tokens, accepts only the latest one (or refuses the first `forbidFirst` posts). */
function origin({ forbidFirst = 0 } = {}) {
  const seen: { method: string; url: string; token: string | null }[] = [];
  let issued = 0;
  let forbidden = forbidFirst;
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const url = String(input);
    seen.push({ method, url, token: new Headers(init?.headers).get('x-csrf-token') });
    if (url === '/token') return new Response(`token-${++issued}`);
    if (forbidden > 0) {
      forbidden -= 1;
      return new Response('{}', { status: 403 });
    }
    return new Response('{}', { status: 200 });
  }) as typeof fetch;
  return { fetchFn, seen };
}

describe('the CSRF token of a page', () => {
  it('is fetched once for every call of the page', async () => {
    const { fetchFn, seen } = origin();
    for (let i = 0; i < 3; i += 1) expect((await fetchWithCsrfToken(fetchFn, '/token', '/api/x', { method: 'POST', body: '{}' })).status).toBe(200);
    expect(seen.map(({ method, url, token }) => `${method} ${url} ${token ?? ''}`.trim())).toEqual([
      'GET /token',
      'POST /api/x token-1',
      'POST /api/x token-1',
      'POST /api/x token-1',
    ]);
  });

  it('is fetched again after a 403, and the call sent once more with the new one', async () => {
    const { fetchFn, seen } = origin({ forbidFirst: 1 });
    expect((await fetchWithCsrfToken(fetchFn, '/token', '/api/x', { method: 'POST' })).status).toBe(200);
    expect(seen.map(({ method, url, token }) => `${method} ${url} ${token ?? ''}`.trim())).toEqual(['GET /token', 'POST /api/x token-1', 'GET /token', 'POST /api/x token-2']);
  });

  it('answers a second 403 as it is (no loop)', async () => {
    const { fetchFn, seen } = origin({ forbidFirst: 5 });
    expect((await fetchWithCsrfToken(fetchFn, '/token', '/api/x', { method: 'POST' })).status).toBe(403);
    expect(seen).toHaveLength(4);
  });

  it('forgets a failed token request, so the next call tries again', async () => {
    let fail = true;
    const fetchFn = (async () => (fail ? new Response('no', { status: 500 }) : new Response('token-ok'))) as unknown as typeof fetch;
    await expect(csrfToken(fetchFn, '/token')).rejects.toThrow(/status 500/);
    fail = false;
    await expect(csrfToken(fetchFn, '/token')).resolves.toBe('token-ok');
  });
});
