// Every route the running site answers, listed from the code that registers it, per part of the
// stack. The fuzz corpus (corpus.ts) sends each of them malformed and hostile requests. A route
// added to the code belongs here too: say where it is registered.
import { EDGE_KEY_HEADER, FORM_TOKEN_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER } from '@khs/team-service/edge';
import { CONTACT_SERVICE_PATHS, DEFAULT_CALL_URLS, DEFAULT_SEARCH_INDEX_NAME, SERVICE_PAGE_PATHS } from 'contracts';
import type { TeamServiceName } from '@khs/stack/registry';

/** A part of the stack with its own listening socket. */
export type FuzzPart = 'shell' | 'survey' | 'watchlist' | 'search-team' | 'contact' | 'search' | `origin:${string}`;

/** What a route's body is, when it takes one. */
export type BodyKind = 'json' | 'multipart' | 'ndjson';

export interface FuzzRoute {
  part: FuzzPart;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Request target as sent (path and query), e.g. `/api/survey-results/team-size`. */
  path: string;
  /** The body a well-behaved client sends (hostile variants start from it). */
  body?: { kind: BodyKind; valid: string; limitBytes: number };
  /** Needs the shell's CSRF token and cookie to get past the edge (unsafe method, not exempt). */
  csrf?: boolean;
  /** Extra headers a well-behaved client sends (API keys, operator token). */
  headers?: Array<[string, string]>;
  /**
   * An admin-keyed read of what the site serves (its collection, an article): the corpus's other
   * methods go without `headers`, so it never changes or drops the index the site searches.
   */
  readOnlyKey?: boolean;
  /** Serves a file: `Range` variants apply. */
  file?: boolean;
  /**
   * Share of the variants every route gets (methods, protocol, host, headers, paths, queries) sent
   * to this route, picked by the seed; default 1. For routes another one of the same handler
   * covers in full (more pages, more files of one origin): each costs a server render or a file.
   */
  sample?: number;
  /** What the well-behaved request itself gets (default 200): proof that the corpus reaches the route's handler. */
  baseline?: number[];
}

/** Files a remote's origin answers 404 for: one that does not exist, and the build stats in its folder (`tooling/static-server` `PRIVATE_FILE_NAMES`). */
const NOT_SERVED_ORIGIN_FILES = new Set(['/no-such-file.js', '/mf-stats.json']);

/** The share of the generic variants sent to a route whose handler another route covers in full. */
const SAMPLED = 0.25;

/** What the route list needs to know about the running stack and its content. */
export interface RouteContext {
  articleId: string;
  surveyHandle: string;
  operatorToken: string;
  /** The edge key the stack gave each team service: a direct call to one comes as the edge sends it. */
  edgeKeyOf: (service: TeamServiceName) => string;
  searchKey: string;
  adminKey: string;
  /** Files of the shell's client build (`/assets/…`), of its public folder and of the content. */
  shellAssets: string[];
  contentImage: string;
  /** A content image by its content-hashed URL (`/images/<name>.<hash>.svg`). */
  hashedImage: string;
  contentMedia: string;
  /** Per remote origin: some of the files it serves (manifest, entry, chunks, standalone page, server entry). */
  originFiles: Record<string, string[]>;
}

const json = (valid: unknown, limitBytes: number) => ({ kind: 'json' as const, valid: JSON.stringify(valid), limitBytes });

/** A multipart body as the contact form sends it. */
export const MULTIPART_BOUNDARY = 'khsFuzzBoundary7MA4YWxkTrZu0gW';
function contactForm(): string {
  const field = (name: string, value: string) => `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return `${field('name', 'Fuzz Tester')}${field('email', 'fuzz@example.org')}${field('message', 'Hello from the fuzz corpus.')}--${MULTIPART_BOUNDARY}--\r\n`;
}

/** The insights event a search page sends. */
function insightsBody(articleId: string) {
  return { events: [{ eventType: 'view', eventName: 'Hits Viewed', index: DEFAULT_SEARCH_INDEX_NAME, userToken: 'anonymous-fuzz', objectIDs: [articleId], positions: [1] }] };
}

const survey = (handle: string) => ({
  submit: DEFAULT_CALL_URLS.surveySubmit.replace('{formHandle}', encodeURIComponent(handle)),
  results: DEFAULT_CALL_URLS.surveyResults.replace('{formHandle}', encodeURIComponent(handle)),
  ofArticle: (articleId: string) => DEFAULT_CALL_URLS.articleSurvey.replace('{articleId}', encodeURIComponent(articleId)),
});

/** The routes of every part, from the code that registers them. */
export function listRoutes(context: RouteContext): FuzzRoute[] {
  const { articleId, surveyHandle } = context;
  const surveyPaths = survey(surveyHandle);
  const watchlistBody = json({ storedWatchlist: { articles: { [articleId]: { title: 'Negotiating' } } } }, 256 * 1024);
  const operator: Array<[string, string]> = [['authorization', `Bearer ${context.operatorToken}`]];
  const searchKey: Array<[string, string]> = [['x-typesense-api-key', context.searchKey]];
  const adminKey: Array<[string, string]> = [['x-typesense-api-key', context.adminKey]];
  // A call straight to a team service, as the shell's proxy forwards it (its edge key, visitor, link origin).
  const edge = (service: TeamServiceName): Array<[string, string]> => [
    [EDGE_KEY_HEADER, context.edgeKeyOf(service)],
    [VISITOR_ID_HEADER, 'fuzzVisitor00000000000001'],
    [LINK_ORIGIN_HEADER, 'http://127.0.0.1:4300'],
    [FORM_TOKEN_HEADER, 'fuzz-form-token'],
  ];
  const collection = `/collections/${DEFAULT_SEARCH_INDEX_NAME}`;
  // A collection and a set that do not exist: admin requests never change the site's index.
  const fuzzCollection = '/collections/fuzz-absent';
  const searchBody = json({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q: 'leadership', query_by: 'title,headline,intro,content', per_page: 10 }] }, 64 * 1024);

  return [
    // shell/src/server/pages/routes.tsx
    { part: 'shell', method: 'GET', path: '/', sample: SAMPLED },
    { part: 'shell', method: 'GET', path: `/articles/${articleId}` },
    { part: 'shell', method: 'GET', path: '/articles/no-such-article', sample: SAMPLED, baseline: [404] },
    { part: 'shell', method: 'GET', path: `${DEFAULT_CALL_URLS.searchPage}?q=leadership` },
    { part: 'shell', method: 'GET', path: DEFAULT_CALL_URLS.watchlistPage, sample: SAMPLED },
    // shell/src/server/watchlist/sharedWatchlistRoutes.tsx
    { part: 'shell', method: 'GET', path: '/watchlist/shared/aaaaaaaaaaaaaaaaaaaaaa', sample: SAMPLED, baseline: [404] },
    // shell/src/server/fragmentPages/contactPageRoutes.tsx
    { part: 'shell', method: 'GET', path: `${CONTACT_SERVICE_PATHS.page}?sent=1`, sample: SAMPLED },
    { part: 'shell', method: 'POST', path: CONTACT_SERVICE_PATHS.page, body: { kind: 'multipart', valid: contactForm(), limitBytes: 6 * 1024 * 1024 }, csrf: true, baseline: [303] },
    // shell/src/server/seo/seoRoutes.ts
    { part: 'shell', method: 'GET', path: '/sitemap.xml', sample: SAMPLED },
    { part: 'shell', method: 'GET', path: '/sitemap-2.xml', sample: SAMPLED, baseline: [404] },
    { part: 'shell', method: 'GET', path: '/robots.txt', sample: SAMPLED },
    { part: 'shell', method: 'GET', path: '/feed.xml' },
    { part: 'shell', method: 'GET', path: '/favicon.ico', file: true, sample: SAMPLED },
    { part: 'shell', method: 'GET', path: context.hashedImage, file: true },
    { part: 'shell', method: 'GET', path: context.hashedImage.replace(/\.svg$/, '.1200w.png'), file: true, sample: SAMPLED },
    // shell/src/server/security/csrf.ts
    { part: 'shell', method: 'GET', path: DEFAULT_CALL_URLS.csrfToken },
    // shell/src/server/health/healthRoutes.tsx (the operators' view needs OPERATOR_TOKEN)
    { part: 'shell', method: 'POST', path: '/api/island-failures', body: json({ remote: 'mf-widgets', stage: 'mount', code: 'KHS-ISLAND-001' }, 2048), baseline: [204] },
    { part: 'shell', method: 'GET', path: '/health/remotes', headers: operator },
    { part: 'shell', method: 'GET', path: '/health/remotes.json', headers: operator },
    // shell/src/server/proxy/teamServiceProxies.ts: the team services' calls, forwarded
    { part: 'shell', method: 'POST', path: surveyPaths.submit, body: json({ answerPosition: 1 }, 1024), csrf: true, baseline: [201, 200] },
    { part: 'shell', method: 'GET', path: surveyPaths.results },
    { part: 'shell', method: 'GET', path: surveyPaths.ofArticle(articleId), baseline: [200, 404] },
    { part: 'shell', method: 'POST', path: DEFAULT_CALL_URLS.watchlist, body: watchlistBody, csrf: true },
    { part: 'shell', method: 'POST', path: DEFAULT_CALL_URLS.download, body: watchlistBody, csrf: true },
    { part: 'shell', method: 'POST', path: DEFAULT_CALL_URLS.insights, body: json(insightsBody(articleId), 128 * 1024) },
    // shell/src/server/app.ts: static files (@fastify/static) and the 404 page
    ...context.shellAssets.map((path, index): FuzzRoute => ({ part: 'shell', method: 'GET', path, file: true, ...(index > 0 ? { sample: SAMPLED } : {}) })),
    { part: 'shell', method: 'GET', path: context.contentImage, file: true, sample: SAMPLED },
    { part: 'shell', method: 'GET', path: context.contentMedia, file: true },
    { part: 'shell', method: 'GET', path: '/no/such/page', sample: SAMPLED, baseline: [404] },

    // libs/team-service/src/createServiceApp.ts: every service's /health
    ...(['survey', 'watchlist', 'search-team', 'contact'] as const).map((part): FuzzRoute => ({ part, method: 'GET', path: '/health' })),
    // mf-survey/server/src/surveyRoutes.ts
    { part: 'survey', method: 'POST', path: surveyPaths.submit, body: json({ answerPosition: 1 }, 1024), headers: edge('survey'), baseline: [201, 200] },
    { part: 'survey', method: 'GET', path: surveyPaths.results, headers: edge('survey') },
    { part: 'survey', method: 'GET', path: survey('no-such-survey').results, headers: edge('survey'), baseline: [404] },
    { part: 'survey', method: 'GET', path: surveyPaths.ofArticle(articleId), headers: edge('survey'), baseline: [200, 404] },
    // mf-watchlist/server/src/watchlistRoutes.ts (its page: sharedWatchlistPage.tsx)
    { part: 'watchlist', method: 'POST', path: DEFAULT_CALL_URLS.watchlist, body: watchlistBody, headers: edge('watchlist') },
    { part: 'watchlist', method: 'POST', path: DEFAULT_CALL_URLS.download, body: watchlistBody, headers: edge('watchlist') },
    { part: 'watchlist', method: 'GET', path: SERVICE_PAGE_PATHS.sharedWatchlist.replace('{shareId}', 'aaaaaaaaaaaaaaaaaaaaaa'), headers: edge('watchlist'), baseline: [404] },
    // mf-search/server/src/insightsRoutes.ts
    { part: 'search-team', method: 'POST', path: DEFAULT_CALL_URLS.insights, body: json(insightsBody(articleId), 128 * 1024), headers: edge('search-team') },
    // contact/server/src/contactRoutes.tsx
    { part: 'contact', method: 'GET', path: `${CONTACT_SERVICE_PATHS.pageFragment}?sent=1`, headers: edge('contact') },
    { part: 'contact', method: 'GET', path: CONTACT_SERVICE_PATHS.problemFragment.replace('{status}', '413'), headers: edge('contact'), baseline: [413] },
    { part: 'contact', method: 'POST', path: CONTACT_SERVICE_PATHS.page, body: { kind: 'multipart', valid: contactForm(), limitBytes: 6 * 1024 * 1024 }, headers: edge('contact'), baseline: [303] },

    // search-engine/src/http/server.ts
    { part: 'search', method: 'GET', path: '/health' },
    { part: 'search', method: 'GET', path: '/stats.json', headers: adminKey },
    { part: 'search', method: 'POST', path: '/multi_search', body: searchBody, headers: searchKey },
    { part: 'search', method: 'GET', path: '/collections', headers: adminKey, readOnlyKey: true },
    { part: 'search', method: 'POST', path: '/collections', body: json({ name: 'fuzz-absent', fields: 'not-a-list' }, 1024 * 1024), headers: adminKey, baseline: [400] },
    { part: 'search', method: 'GET', path: collection, headers: adminKey, readOnlyKey: true },
    { part: 'search', method: 'DELETE', path: fuzzCollection, headers: adminKey, baseline: [404] },
    { part: 'search', method: 'GET', path: `${collection}/documents/search?q=leadership&query_by=title`, headers: searchKey, readOnlyKey: true },
    { part: 'search', method: 'POST', path: `${fuzzCollection}/documents/import?action=upsert`, body: { kind: 'ndjson', valid: '{"id":"1"}\n{"id":"2"}', limitBytes: 1024 * 1024 }, headers: adminKey, baseline: [404] },
    { part: 'search', method: 'POST', path: `${fuzzCollection}/documents`, body: json({ id: 'x' }, 1024 * 1024), headers: adminKey, baseline: [404] },
    { part: 'search', method: 'GET', path: `${collection}/documents/${articleId}`, headers: adminKey, readOnlyKey: true },
    { part: 'search', method: 'PATCH', path: `${fuzzCollection}/documents/x`, body: json({ title: 'x' }, 1024 * 1024), headers: adminKey, baseline: [404] },
    { part: 'search', method: 'DELETE', path: `${fuzzCollection}/documents/x`, headers: adminKey, baseline: [404] },
    // search-engine/src/http/set-routes.ts
    { part: 'search', method: 'PATCH', path: fuzzCollection, body: json({ synonym_sets: ['fuzz-absent'] }, 1024 * 1024), headers: adminKey, baseline: [404] },
    ...(['synonym_sets', 'curation_sets'] as const).flatMap((kind): FuzzRoute[] => [
      { part: 'search', method: 'GET', path: `/${kind}`, headers: adminKey },
      { part: 'search', method: 'GET', path: `/${kind}/fuzz-absent`, headers: adminKey, baseline: [404] },
      { part: 'search', method: 'PUT', path: `/${kind}/fuzz-absent`, body: json({ items: 'not-a-list' }, 1024 * 1024), headers: adminKey, baseline: [400] },
      { part: 'search', method: 'DELETE', path: `/${kind}/fuzz-absent`, headers: adminKey, baseline: [404] },
      { part: 'search', method: 'GET', path: `/${kind}/fuzz-absent/items/x`, headers: adminKey, baseline: [404] },
      { part: 'search', method: 'PUT', path: `/${kind}/fuzz-absent/items/x`, body: json({ id: 'x' }, 1024 * 1024), headers: adminKey, baseline: [404] },
      { part: 'search', method: 'DELETE', path: `/${kind}/fuzz-absent/items/x`, headers: adminKey, baseline: [404] },
    ]),

    // tooling/static-server: each remote's origin (its build's files)
    // (the manifest and the entry in full, the other files sampled: one handler serves them all;
    // the build stats are there but not served, like a file that does not exist)
    ...Object.entries(context.originFiles).flatMap(([remote, files]) =>
      [...files, '/no-such-file.js'].map((path, index): FuzzRoute => ({
        part: `origin:${remote}`,
        method: 'GET',
        path,
        file: true,
        ...(index > 1 ? { sample: SAMPLED } : {}),
        ...(NOT_SERVED_ORIGIN_FILES.has(path) ? { baseline: [404] } : {}),
      })),
    ),
  ];
}
