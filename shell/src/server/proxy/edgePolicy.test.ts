// The generic edge policy: what a service may declare, and that the proxy applies a declaration it
// has never seen (a made-up service, not one of the site's) rule by rule.
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { VISITOR_ID_HEADER, LINK_ORIGIN_HEADER } from '@khs/team-service/edge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readShellConfig } from '../config.js';
import { BrowserSession, uniqueClientAddress } from '../testing/browserSession.js';
import { buildTestApp, TEST_COOKIE_SECRET } from '../testing/buildTestApp.js';
import { EdgePolicyError, parseEdgePolicy, pathParameterScope, proxiedRoutesOf, servicePagePath } from './edgePolicy.js';
import { serviceProxy, type ServiceProxyOptions } from './serviceProxy.js';

const route = (extra: Record<string, unknown>) => ({ call: 'surveySubmit', method: 'POST', ...extra });
const parse = (routes: unknown[]) => parseEdgePolicy({ routes }, 'made-up');

describe('parseEdgePolicy', () => {
  it('accepts every declaration of the site\'s services (they are read at start)', () => {
    const services = readShellConfig({}).services;
    expect(Object.values(services).flatMap((service) => service.edgePolicy.routes.map((declared) => `${declared.method} ${declared.call}`)).sort()).toEqual([
      'GET articleSurvey',
      'GET surveyResults',
      'POST download',
      'POST insights',
      'POST siteSearch',
      'POST surveySubmit',
      'POST watchlist',
    ]);
  });

  it.each([
    ['not an object', null, /routes array/],
    ['an unknown call', { routes: [route({ call: 'nope' })] }, /names no call/],
    ['a method other than GET or POST', { routes: [route({ method: 'PUT' })] }, /method must be GET or POST/],
    ['a misspelt key', { routes: [route({ bodyLimit: 10 })] }, /unknown keys bodyLimit/],
    ['a body limit of 0', { routes: [route({ bodyLimitBytes: 0 })] }, /bodyLimitBytes/],
    ['a body limit past 8 MiB', { routes: [route({ bodyLimitBytes: 9 * 1024 * 1024 })] }, /bodyLimitBytes/],
    ['csrf: false without a reason', { routes: [route({ csrf: false, rateLimit: { max: 1, windowMs: 1000 } })] }, /csrfExemptBecause/],
    ['csrf: false without a rate limit', { routes: [route({ csrf: false, csrfExemptBecause: 'beacons cannot send a token' })] }, /needs a rateLimit/],
    ['a reason without csrf: false', { routes: [route({ csrfExemptBecause: 'beacons cannot send a token' })] }, /only goes with csrf: false/],
    ['a scope on a parameter the path lacks', { routes: [route({ rateLimit: { max: 1, windowMs: 1000, scope: { pathParameter: 'surveyId', maxLength: 10 } } })] }, /parameter of \/api\/surveys\/\{formHandle\}/],
    ['a window under a second', { routes: [route({ rateLimit: { max: 1, windowMs: 10 } })] }, /windowMs/],
    ['sliding windows together with a fixed one', { routes: [route({ rateLimit: { max: 1, windowMs: 1000, windows: [{ max: 1, windowMs: 1000 }] } })] }, /either max and windowMs .* or windows/],
    ['no sliding windows', { routes: [route({ rateLimit: { windows: [] } })] }, /1 to 4 sliding windows/],
    ['a sliding window under a second', { routes: [route({ rateLimit: { windows: [{ max: 1, windowMs: 999 }] } })] }, /1 to 4 sliding windows/],
    ['a sliding window with another key', { routes: [route({ rateLimit: { windows: [{ max: 1, windowMs: 1000, burst: 2 }] } })] }, /1 to 4 sliding windows/],
    ['a visitor id purpose with spaces', { routes: [route({ visitorIdPurpose: 'my purpose' })] }, /visitorIdPurpose/],
    ['one call twice', { routes: [route({}), route({})] }, /POST surveySubmit twice/],
    ['a page contracts do not name', { routes: [], pages: [{ page: 'nope', unavailable: { title: 'T', text: 'X' } }] }, /names no page/],
    ['a page without its unavailable text', { routes: [], pages: [{ page: 'sharedWatchlist' }] }, /unavailable: \{ title, text \}/],
    ['a form page contracts do not name', { routes: [], formPages: [{ page: 'nope' }] }, /names no form page/],
    [
      'a form page without its post limit',
      { routes: [], formPages: [{ page: 'contact', maxBodyBytes: 10, uploadTimeoutMs: 1000, inFlightPerAddress: 1, connectionsPerUpstream: 1, unavailable: { title: 'T', heading: 'H', text: 'X' } }] },
      /needs rateLimit/,
    ],
    ['a robots value other than noindex', { routes: [], pages: [{ page: 'sharedWatchlist', robots: 'all', unavailable: { title: 'T', text: 'X' } }] }, /robots/],
  ])('refuses %s, naming the service', (_case, policy, problem) => {
    expect(() => parseEdgePolicy(policy, 'made-up')).toThrow(EdgePolicyError);
    expect(() => parseEdgePolicy(policy, 'made-up')).toThrow(/^The made-up service's edge policy/);
    expect(() => parseEdgePolicy(policy, 'made-up')).toThrow(problem);
  });

  it('reads the form pages a service declares', () => {
    expect(readShellConfig({}).services.contact.edgePolicy.formPages).toEqual([
      {
        page: 'contact',
        footerLink: 'Contact',
        maxBodyBytes: 6 * 1024 * 1024,
        uploadTimeoutMs: 45_000,
        inFlightPerAddress: 2,
        connectionsPerUpstream: 16,
        rateLimit: { max: 10, windowMs: 10 * 60 * 1000 },
        unavailable: { title: 'Contact', pageClass: 'page-contact', heading: 'The contact form is not available right now', text: expect.stringContaining('Nothing was sent') },
        index: { description: expect.stringContaining('Write to the editorial team') },
      },
    ]);
  });

  it('keys a per-parameter counter by a printable form of the value (a NUL in a handle made PostgreSQL refuse the counter: 500)', () => {
    const scope = { pathParameter: 'formHandle', maxLength: 10 };
    const key = (value: string) => pathParameterScope({ params: { formHandle: value } } as never, scope);
    expect(key('team-1')).toBe('formHandle=team-1');
    expect(key('a\u0000b')).toBe('formHandle=a%0b');
    expect(key('a%0b')).toBe('formHandle=a%250b');
    expect(key('caf\u00e9 x')).toBe('formHandle=caf%e9%20x');
    expect(key('x'.repeat(11))).toBe('formHandle=?');
  });

  it('reads the pages a service declares', () => {
    expect(readShellConfig({}).services.watchlist.edgePolicy.pages).toEqual([
      { page: 'sharedWatchlist', robots: 'noindex', sharedCache: true, unavailable: { title: 'Shared watchlist', text: expect.stringContaining('cannot be shown right now') } },
    ]);
  });

  it("reads the search service's report page as behind a token, and refuses a page both behind a token and shared-cacheable", () => {
    expect(readShellConfig({}).services['search-team'].edgePolicy.pages).toEqual([
      { page: 'searchReport', robots: 'noindex', forwardsAuthorization: true, unavailable: { title: 'Search report', text: expect.stringContaining('cannot be shown right now') } },
    ]);
    const page = (extra: Record<string, unknown>) => parseEdgePolicy({ routes: [], pages: [{ page: 'searchReport', unavailable: { title: 'T', text: 'x' }, ...extra }] }, 'made-up');
    expect(() => page({ forwardsAuthorization: 'yes' })).toThrow(/forwardsAuthorization must be true or false/);
    expect(() => page({ forwardsAuthorization: true, sharedCache: true })).toThrow(/cannot be kept by shared caches/);
    expect(page({ forwardsAuthorization: false }).pages).toEqual([{ page: 'searchReport', unavailable: { title: 'T', text: 'x' } }]);
  });

  it("reads a page of the slice's own at the path it declares, and refuses a path outside the pages' space", () => {
    const page = (declared: Record<string, unknown>) => parseEdgePolicy({ routes: [], pages: [{ unavailable: { title: 'T', text: 'x' }, ...declared }] }, 'made-up');
    const own = page({ page: 'proofPage', path: '/proof/{item}' }).pages![0]!;
    expect(own).toEqual({ page: 'proofPage', path: '/proof/{item}', unavailable: { title: 'T', text: 'x' } });
    expect(servicePagePath(own)).toBe('/proof/{item}');
    expect(servicePagePath(page({ page: 'searchReport' }).pages![0]!)).toBe('/editors/search-report');
    expect(() => page({ page: 'madeUp' })).toThrow(/names no page of contracts' SERVICE_PAGE_PATHS \(a page of the slice's own needs its path\)/);
    expect(() => page({ page: 'searchReport', path: '/report' })).toThrow(/is a page of contracts' SERVICE_PAGE_PATHS/);
    for (const path of ['/api/proof', '/__khs/x', 'proof', '/', '/Proof', '/proof/', '/proof/../x', 42]) {
      expect(() => page({ page: 'proofPage', path }), String(path)).toThrow(/path must be lower-case segments/);
    }
  });

  it('turns declarations into proxy routes at the paths contracts give the calls', () => {
    const [submit, results] = proxiedRoutesOf(
      parse([route({ bodyLimitBytes: 64, visitorIdPurpose: 'made-up-purpose', linkOrigin: true, rateLimit: { max: 2, windowMs: 60_000 } }), { call: 'surveyResults', method: 'GET' }]),
    );
    expect(submit).toMatchObject({ method: 'POST', url: '/api/surveys/:formHandle/submissions', bodyLimit: 64, visitorIdPurpose: 'made-up-purpose', forwardLinkOrigin: true, rateLimit: { policy: { max: 2, windowMs: 60_000 } } });
    expect(submit!.csrfExempt).toBeUndefined();
    expect(results).toEqual({ method: 'GET', url: '/api/survey-results/:formHandle' });
  });

  it('a rate limit of sliding windows becomes the route\'s windows (the survey vote limit)', () => {
    const windows = [{ max: 10, windowMs: 60_000 }, { max: 200, windowMs: 3_600_000 }];
    const [submit] = proxiedRoutesOf(parse([route({ rateLimit: { windows, scope: { pathParameter: 'formHandle', maxLength: 8 } } })]));
    expect(submit!.rateLimit!.policy).toEqual({ windows });
    expect(typeof submit!.rateLimit!.scope).toBe('function');
  });
});

interface Seen {
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

describe('a made-up service\'s declaration, applied by the proxy', () => {
  const seen: Seen[] = [];
  let upstream: FastifyInstance;
  let app: FastifyInstance;
  beforeAll(async () => {
    upstream = Fastify();
    upstream.removeAllContentTypeParsers();
    upstream.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    upstream.all('/*', async (request, reply) => {
      seen.push({ url: request.url, headers: request.headers });
      return reply.code(201).send({ ok: true });
    });
    await upstream.listen({ host: '127.0.0.1', port: 0 });
    const policy = parse([
      // Counted per value of `formHandle` (up to 8 characters; longer values share one counter), a visitor id of its own purpose.
      route({ bodyLimitBytes: 32, visitorIdPurpose: 'made-up-purpose', rateLimit: { max: 2, windowMs: 60_000, scope: { pathParameter: 'formHandle', maxLength: 8 } } }),
      // A beacon: no token, limited per address.
      { call: 'insights', method: 'POST', csrf: false, csrfExemptBecause: 'a beacon cannot send a token', rateLimit: { max: 1, windowMs: 60_000 } },
    ]);
    const options: ServiceProxyOptions = {
      service: 'made-up',
      upstreams: [`http://127.0.0.1:${(upstream.server.address() as net.AddressInfo).port}`],
      cookieSecret: TEST_COOKIE_SECRET,
      edgeKey: 'k'.repeat(32),
      connectTimeoutMs: 1000,
      responseTimeoutMs: 3000,
      linkOrigin: () => 'https://links.example',
      routes: proxiedRoutesOf(policy),
    };
    ({ app } = await buildTestApp({ features: [{ plugin: serviceProxy, options }] }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('needs the CSRF token, caps the body, names the visitor for the declared purpose and no link origin', async () => {
    const browser = new BrowserSession(app);
    expect((await app.inject({ method: 'POST', url: '/api/surveys/a/submissions', headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(403);
    expect((await browser.submit('a', JSON.stringify({ padding: 'x'.repeat(40) }))).statusCode).toBe(413);
    expect(seen).toEqual([]);
    expect((await browser.submit('a', '{}')).statusCode).toBe(201);
    expect(seen[0]!.headers[VISITOR_ID_HEADER]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(seen[0]!.headers[LINK_ORIGIN_HEADER]).toBeUndefined();
    seen.length = 0;
  });

  it('counts the limit per address and per declared path parameter; values past its length share one counter', async () => {
    const address = uniqueClientAddress();
    const vote = async (handle: string) => (await new BrowserSession(app, address).submit(handle, '{}')).statusCode;
    expect([await vote('first'), await vote('first'), await vote('first')]).toEqual([201, 201, 429]);
    expect([await vote('second'), await vote('second'), await vote('second')]).toEqual([201, 201, 429]);
    // Two different over-long values count together.
    expect([await vote('long-value-1'), await vote('long-value-2'), await vote('long-value-3')]).toEqual([201, 201, 429]);
    expect(seen.map((request) => request.url)).toEqual([
      '/api/surveys/first/submissions',
      '/api/surveys/first/submissions',
      '/api/surveys/second/submissions',
      '/api/surveys/second/submissions',
      '/api/surveys/long-value-1/submissions',
      '/api/surveys/long-value-2/submissions',
    ]);
    seen.length = 0;
  });

  it('forwards a declared beacon without a token, limited per address', async () => {
    const address = uniqueClientAddress();
    const beacon = () => app.inject({ method: 'POST', url: '/api/insights/events', remoteAddress: address, headers: { 'content-type': 'text/plain' }, payload: '{}' });
    expect([(await beacon()).statusCode, (await beacon()).statusCode]).toEqual([201, 429]);
    expect(seen.map((request) => request.url)).toEqual(['/api/insights/events']);
    expect(seen[0]!.headers[VISITOR_ID_HEADER]).toBeUndefined();
  });
});
