import { isPageFragment, PAGE_FRAGMENT_MEDIA_TYPE, type PageFragment } from 'contracts';

/**
 * A service's page content with the status it gave (and its `WWW-Authenticate` challenge, when it
 * sent one), or `unavailable` (down, too slow, or not a fragment).
 */
export type FetchedFragment = { status: number; fragment: PageFragment; wwwAuthenticate?: string } | 'unavailable';

/** Largest fragment the shell reads (bytes): page content, not files. */
export const PAGE_FRAGMENT_MAX_BYTES = 2 * 1024 * 1024;

/** Reads a fragment answer's body, at most `PAGE_FRAGMENT_MAX_BYTES`. */
export async function readFragmentBody(status: number, contentType: string | undefined, chunks: AsyncIterable<Uint8Array>): Promise<FetchedFragment> {
  if (String(contentType ?? '').split(';')[0]!.trim() !== PAGE_FRAGMENT_MEDIA_TYPE) return 'unavailable';
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > PAGE_FRAGMENT_MAX_BYTES) return 'unavailable';
    parts.push(Buffer.from(chunk));
  }
  try {
    const fragment: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
    return isPageFragment(fragment) ? { status, fragment } : 'unavailable';
  } catch {
    return 'unavailable';
  }
}

/** GETs a page fragment from a service within `timeoutMs`; any failure is `unavailable`, never a throw. */
export async function fetchPageFragment(url: string, headers: Record<string, string>, timeoutMs: number): Promise<FetchedFragment> {
  try {
    const response = await fetch(url, { headers: { accept: PAGE_FRAGMENT_MEDIA_TYPE, ...headers }, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    if (!response.body) return 'unavailable';
    return await readFragmentBody(response.status, response.headers.get('content-type') ?? undefined, response.body as unknown as AsyncIterable<Uint8Array>);
  } catch {
    return 'unavailable';
  }
}

/**
 * GETs a service's page (a fragment at the page's own path): its fragment with the status it gave,
 * `not-found` for a 404 (whatever its body), `unavailable` for anything else that is not a fragment.
 */
export async function fetchServicePage(url: string, headers: Record<string, string>, timeoutMs: number): Promise<FetchedFragment | 'not-found'> {
  try {
    const response = await fetch(url, { headers: { accept: PAGE_FRAGMENT_MEDIA_TYPE, ...headers }, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    if (response.status === 404) {
      await response.body?.cancel();
      return 'not-found';
    }
    if (!response.body) return 'unavailable';
    const fetched = await readFragmentBody(response.status, response.headers.get('content-type') ?? undefined, response.body as unknown as AsyncIterable<Uint8Array>);
    const challenge = response.headers.get('www-authenticate');
    return fetched !== 'unavailable' && challenge ? { ...fetched, wwwAuthenticate: challenge } : fetched;
  } catch {
    return 'unavailable';
  }
}
