import { DEFAULT_CALL_URLS, type LocalWatchlist, type StoredWatchlist, type Teaser } from 'contracts';

/** A teaser as the shell would resolve it, for tests. */
export function testTeaser(id: string, title = `Title of ${id}`): Teaser {
  return {
    id,
    overline: 'Leadership',
    title,
    href: `/articles/${id}`,
    tags: [{ title: 'Leadership' }, { title: 'Coaching' }],
    intro: `Intro of ${id}`,
    image: { src: `/content-images/${id}.svg`, srcSet: `/content-images/${id}.svg 1x`, alt: `Picture for ${id}` },
    cta: 'Read article',
    labels: { add: 'Add to watchlist', remove: 'Remove from watchlist' },
  };
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Answer = () => Response | Promise<Response>;

/**
 * A stand-in for the shell's watchlist calls behind `fetch`: answers a token, resolves the
 * posted watchlist to teasers (every id is known) and serves a PDF blob. Tests override any
 * answer and read the recorded requests.
 */
export function fakeWatchlistServer(options: { related?: Teaser[] } = {}) {
  const requests: RecordedRequest[] = [];
  const overrides: { watchlist?: Answer; download?: Answer } = {};
  let tokenCount = 0;

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ url, method: init.method ?? 'GET', headers, body });
    if (url === DEFAULT_CALL_URLS.csrfToken) return new Response(`token-${++tokenCount}`, { status: 200 });
    if (url === DEFAULT_CALL_URLS.watchlist) {
      if (overrides.watchlist) return overrides.watchlist();
      const local = (body as { storedWatchlist: LocalWatchlist }).storedWatchlist;
      const stored: StoredWatchlist = {
        articles: Object.fromEntries(Object.entries(local.articles).map(([id, { title }]) => [id, testTeaser(id, title)])),
        relatedArticles: options.related ?? [],
        sharingUrl: Object.keys(local.articles).length > 0 ? 'http://site.test/watchlist/shared/share-123' : '',
      };
      return Response.json({ storedWatchlist: stored });
    }
    if (url === DEFAULT_CALL_URLS.download) {
      if (overrides.download) return overrides.download();
      return new Response('%PDF-1.7 test', { status: 200, headers: { 'content-type': 'application/pdf' } });
    }
    return new Response('not found', { status: 404 });
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    requests,
    posts: (url: string) => requests.filter((request) => request.method === 'POST' && request.url === url),
    answerWatchlist(answer: Answer) {
      overrides.watchlist = answer;
    },
    answerDownload(answer: Answer) {
      overrides.download = answer;
    },
  };
}
