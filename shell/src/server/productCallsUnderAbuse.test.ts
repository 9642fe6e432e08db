// Every product call tried as an attacker would (loopback only, bounded counts), on SQLite and
// PostgreSQL: each malformed request gets a 4xx (JSON; an HTML page for the no-script contact
// form), never a 5xx, and nothing is stored. Prints a per-endpoint table of what was tried.
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { listSurveys } from '@khs/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildShellApp } from './app.js';
import { readShellConfig } from './config.js';
import { multipartBody, type FormEntry } from '@khs/team-service/testing';
import { repositoryContentStore as content } from './content/contentStore.js';
import { productFeatures } from './productFeatures.js';
import { createLinkOriginResolver } from './security/linkOrigin.js';
import { uniqueClientAddress } from './testing/browserSession.js';
import { describeOnEachDatabase } from './testing/eachDatabase.js';
import { startSurveyServiceForTest, startTeamServiceForTest, type SurveyServiceUnderTest, type TeamServiceUnderTest } from './testing/teamServiceUnderTest.js';
import { fetchCsrf } from './testing/buildTestApp.js';
import { pdfText } from './testing/pdfText.js';
import { testDatabaseUrl } from '@khs/team-service/testing';

const PUBLIC_BASE_URL = 'https://khs.example';
const ALLOWED_HOST = 'www.khs.example';
const article = content.listArticles()[0]!;
const survey = listSurveys()[0]!;
/** The contact service's attachment folder in its data directory (white-box: "no file was stored"). */
const CONTACT_ATTACHMENTS_FOLDER = 'contact-attachments';

/** The contact form page as the contact service declares it (its edge policy): its size and post limit. */
const CONTACT_FORM = readShellConfig({}).services.contact.edgePolicy.formPages![0]!;
const CONTACT_BODY_MAX_BYTES = CONTACT_FORM.maxBodyBytes;
const CONTACT_LIMIT = CONTACT_FORM.rateLimit;
/** The start of a PDF: enough for the edge, which never looks inside a file. */
const SAMPLE_PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** One malformed request: what it is, what it should get, and how to send it. */
interface Attempt {
  endpoint: string;
  label: string;
  /** Expected status; `'4xx'` where any client error is right (the parser decides which). */
  status: number | '4xx';
  /** HTML page (contact form) instead of a JSON error. */
  html?: boolean;
  request: (credentials: { token: string; cookie: string }) => InjectOptions | Promise<InjectOptions>;
}

const json = (payload: string, headers: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...headers, payload });
const B = 'KhsAbuseBoundary';
const part = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const multipart = `multipart/form-data; boundary=${B}`;

function contactAttempts(): Attempt[] {
  const endpoint = 'POST /contact';
  const contact = (label: string, status: Attempt['status'], build: Attempt['request']): Attempt => ({ endpoint, label, status, html: true, request: build });
  const post = (contentType: string, payload: string | Buffer, cookie?: string, extra: Record<string, string> = {}): InjectOptions => ({
    method: 'POST',
    url: '/contact',
    headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}), ...extra },
    payload,
  });
  return [
    contact('"x" as multipart/form-data without boundary', 400, ({ cookie }) => post('multipart/form-data', 'x', cookie)),
    contact('a real form without a boundary parameter', 400, ({ cookie, token }) => post('multipart/form-data', `${part('_csrf', token)}--${B}--\r\n`, cookie)),
    contact('a wrong boundary', 400, ({ cookie, token }) => post('multipart/form-data; boundary=Other', `${part('_csrf', token)}--${B}--\r\n`, cookie)),
    contact('a truncated body (after a valid token)', 400, ({ cookie, token }) => post(multipart, `${part('_csrf', token)}--${B}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAd`, cookie)),
    contact('garbage under a boundary (no token)', 403, ({ cookie }) => post(multipart, `--${B}\r\n\u0000\u0001garbage\r\n\r\n--${B}--\r\n`, cookie)),
    contact('garbage under a boundary (after a valid token)', '4xx', ({ cookie, token }) => post(multipart, `${part('_csrf', token)}--${B}\r\n\u0000\u0001\u00ff garbage\r\n\r\nzz\r\n--${B}--\r\n`, cookie)),
    contact('binary noise as the whole body', '4xx', ({ cookie }) => post(multipart, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), cookie)),
    contact('a part header without a colon', '4xx', ({ cookie, token }) => post(multipart, `${part('_csrf', token)}--${B}\r\nContent-Disposition form-data\r\n\r\nx\r\n--${B}--\r\n`, cookie)),
    contact('an empty body', 403, ({ cookie }) => post(multipart, '', cookie)),
    contact('an unterminated quoted boundary', '4xx', ({ cookie, token }) => post('multipart/form-data; boundary="abc', `${part('_csrf', token)}--${B}--\r\n`, cookie)),
    contact('a 200-character boundary', '4xx', ({ cookie, token }) => post(`multipart/form-data; boundary=${'b'.repeat(200)}`, `${part('_csrf', token)}--${B}--\r\n`, cookie)),
    contact('no secret cookie', 403, ({ token }) => post(multipart, `${part('_csrf', token)}--${B}--\r\n`)),
    contact('an unsigned (forged) secret cookie', 403, ({ token, cookie }) => post(multipart, `${part('_csrf', token)}--${B}--\r\n`, decodeURIComponent(cookie).replace(/\.[^.;]*$/, ''))),
    contact('a cookie header with broken percent-encoding', 403, ({ token }) => post(multipart, `${part('_csrf', token)}--${B}--\r\n`, '_csrf=%E0%A4%A')),
    contact('a wrong token before a file', 403, async ({ cookie }) => {
      const { payload, contentType } = await multipartBody([['_csrf', 'forged'], ['attachment', { fileName: 'a.pdf', type: 'application/pdf', bytes: SAMPLE_PDF }]]);
      return post(contentType, payload, cookie);
    }),
    contact('a file before any token', 403, async ({ cookie, token }) => {
      const { payload, contentType } = await multipartBody([['attachment', { fileName: 'a.pdf', type: 'application/pdf', bytes: SAMPLE_PDF }], ['_csrf', token]]);
      return post(contentType, payload, cookie);
    }),
    contact(`a declared size over ${CONTACT_BODY_MAX_BYTES} bytes`, 413, ({ cookie, token }) => post(multipart, `${part('_csrf', token)}--${B}--\r\n`, cookie, { 'content-length': String(CONTACT_BODY_MAX_BYTES + 1) })),
    contact('two files', 413, async ({ cookie, token }) => {
      const pdf = { fileName: 'a.pdf', type: 'application/pdf', bytes: SAMPLE_PDF };
      const { payload, contentType } = await multipartBody([['_csrf', token], ['attachment', pdf], ['attachment', pdf]]);
      return post(contentType, payload, cookie);
    }),
    contact('17 fields', 413, async ({ cookie, token }) => {
      const entries: FormEntry[] = [['_csrf', token], ...Array.from({ length: 16 }, (_, i): FormEntry => [`f${i}`, 'x'])];
      const { payload, contentType } = await multipartBody(entries);
      return post(contentType, payload, cookie);
    }),
    contact('JSON', 415, ({ cookie, token }) => post('application/json', JSON.stringify({ _csrf: token }), cookie, { 'x-csrf-token': token })),
    contact('url-encoded', 415, ({ cookie, token }) => post('application/x-www-form-urlencoded', `_csrf=${encodeURIComponent(token)}`, cookie)),
    contact('multipart/mixed', 415, ({ cookie, token }) => post(`multipart/mixed; boundary=${B}`, `${part('_csrf', token)}--${B}--\r\n`, cookie)),
    contact('no content type', 415, ({ cookie }) => ({ method: 'POST', url: '/contact', headers: { cookie }, payload: 'x' })),
    contact('a gzip body (valid token inside)', 415, async ({ cookie, token }) => {
      const { payload, contentType } = await multipartBody([['_csrf', token], ['name', 'Ada'], ['email', 'ada@example.org'], ['message', 'Hello']]);
      return post(contentType, gzipSync(payload), cookie, { 'content-encoding': 'gzip' });
    }),
    contact('invalid fields (valid token)', 422, async ({ cookie, token }) => {
      const { payload, contentType } = await multipartBody([['_csrf', token], ['name', ''], ['email', 'nope'], ['message', '']]);
      return post(contentType, payload, cookie);
    }),
  ];
}

function watchlistAttempts(url: string, endpoint: string): Attempt[] {
  const call = (label: string, status: Attempt['status'], body: (c: { token: string; cookie: string }) => { payload: string; 'content-type'?: string; [h: string]: string | undefined }, csrf = true): Attempt => ({
    endpoint,
    label,
    status,
    request: (credentials) => {
      const { payload, ...headers } = body(credentials);
      return {
        method: 'POST',
        url,
        payload,
        headers: { ...(csrf ? { cookie: credentials.cookie, 'x-csrf-token': credentials.token } : {}), ...(headers as Record<string, string>) },
      };
    },
  });
  const list = (articles: unknown) => JSON.stringify({ storedWatchlist: { articles } });
  return [
    call('no CSRF token', 403, () => json(list({})), false),
    call('malformed JSON', 400, () => json('{"storedWatchlist": {')),
    call('an empty JSON body', 400, () => json('')),
    call('JSON null', 400, () => json('null')),
    call('an array', 400, () => json('[1,2]')),
    call('storedWatchlist null', 400, () => json('{"storedWatchlist": null}')),
    call('a numeric title', 400, () => json(list({ a: { title: 5 } }))),
    call('a 201-character id', 400, () => json(list({ ['x'.repeat(201)]: { title: 't' } }))),
    call('501 articles', 422, () => json(list(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`a${i}`, { title: 't' }]))))),
    call('a __proto__ key', 400, () => json('{"storedWatchlist":{"articles":{"__proto__":{"title":"x"}}}}')),
    call('JSON nested 5,000 deep', 400, () => json(`${'['.repeat(5000)}${']'.repeat(5000)}`)),
    call('text/plain (read as a string, not a list)', 400, () => ({ 'content-type': 'text/plain', payload: list({}) })),
    call('multipart', 415, () => ({ 'content-type': multipart, payload: `${part('a', 'b')}--${B}--\r\n` })),
    call('a declared size over 256 KiB', 413, () => json(list({}), { 'content-length': String(256 * 1024 + 1) })),
    call('a valid gzip body', 415, () => ({ 'content-type': 'application/json', 'content-encoding': 'gzip', payload: gzipSync(list({})) as unknown as string })),
    call('an undecodable deflate body', 415, () => json('junk', { 'content-encoding': 'deflate' })),
  ];
}

function surveyAttempts(): Attempt[] {
  const endpoint = 'POST /api/surveys/:formHandle/submissions';
  const url = `/api/surveys/${survey.formHandle}/submissions`;
  const vote = (label: string, status: Attempt['status'], payload: string, options: { url?: string; contentType?: string; csrf?: boolean; headers?: Record<string, string> } = {}): Attempt => ({
    endpoint,
    label,
    status,
    request: ({ cookie, token }) => ({
      method: 'POST',
      url: options.url ?? url,
      payload,
      headers: {
        'content-type': options.contentType ?? 'application/json',
        ...(options.csrf === false ? {} : { cookie, 'x-csrf-token': token }),
        ...options.headers,
      },
    }),
  });
  return [
    vote('no CSRF token', 403, '{"answerPosition":1}', { csrf: false }),
    vote('malformed JSON', 400, '{"answerPosition":'),
    vote('an empty body', 400, ''),
    vote('answerPosition 1e400 (Infinity)', 422, '{"answerPosition":1e400}'),
    vote('answerPosition as a string', 422, '{"answerPosition":"1"}'),
    vote('answerPosition out of range', 422, '{"answerPosition":99}'),
    vote('a bare number', 422, '1'),
    vote('text/plain', 415, '{"answerPosition":1}', { contentType: 'text/plain' }),
    vote('multipart', 415, `${part('answerPosition', '1')}--${B}--\r\n`, { contentType: multipart }),
    vote('a body over 1 KiB', 413, JSON.stringify({ answerPosition: 1, pad: 'x'.repeat(2000) })),
    vote('an unknown survey', 404, '{"answerPosition":1}', { url: '/api/surveys/no-such-survey/submissions' }),
    vote('a 300-character survey handle (over the router\'s 100)', 414, '{"answerPosition":1}', { url: `/api/surveys/${'h'.repeat(300)}/submissions` }),
    vote('broken percent-encoding in the handle', '4xx', '{"answerPosition":1}', { url: '/api/surveys/%E0%A4%A/submissions' }),
    vote('a NUL in the handle', 404, '{"answerPosition":1}', { url: '/api/surveys/a%00b/submissions' }),
  ];
}

function readAttempts(): Attempt[] {
  const get = (endpoint: string, label: string, status: Attempt['status'], url: string, html = false, headers: Record<string, string> = {}): Attempt => ({
    endpoint,
    label,
    status,
    html,
    request: () => ({ method: 'GET', url, headers }),
  });
  return [
    get('GET /api/survey-results/:formHandle', 'an unknown survey', 404, '/api/survey-results/nope'),
    get('GET /api/survey-results/:formHandle', 'a 300-character handle', 414, `/api/survey-results/${'h'.repeat(300)}`),
    get('GET /api/survey-results/:formHandle', 'broken percent-encoding', '4xx', '/api/survey-results/%E0%A4%A'),
    get('GET /watchlist/shared/:shareId', 'an SQL-ish id', 404, `/watchlist/shared/${encodeURIComponent("x' OR '1'='1")}`, true),
    // A page: its 414 is the site's HTML page, not the calls' JSON.
    get('GET /watchlist/shared/:shareId', 'a 500-character id', 414, `/watchlist/shared/${'a'.repeat(500)}`, true),
    get('GET /watchlist/shared/:shareId', 'an unknown well-formed id', 404, '/watchlist/shared/AAAAAAAAAAAAAAAAAAAAAA', true),
  ];
}

function insightsAttempts(): Attempt[] {
  const endpoint = 'POST /api/insights/events';
  const send = (label: string, status: Attempt['status'], payload: string, contentType = 'application/json', headers: Record<string, string> = {}): Attempt => ({
    endpoint,
    label,
    status,
    request: () => ({ method: 'POST', url: '/api/insights/events', payload, headers: { 'content-type': contentType, ...headers } }),
  });
  const event = (overrides: Record<string, unknown>) =>
    JSON.stringify({ events: [{ eventType: 'view', eventName: 'Hits Viewed', index: 'competence-articles', userToken: 'anonymous-1', objectIDs: ['a'], ...overrides }] });
  return [
    send('malformed JSON', 400, '{"events": ['),
    send('malformed JSON as a text/plain beacon', 400, '{"events": [', 'text/plain'),
    send('an empty body', 400, ''),
    send('timestamp 1e300', 400, event({ timestamp: 1e300 })),
    send('a timestamp a year old', 400, event({ timestamp: Date.now() - 365 * 24 * 3600 * 1000 })),
    send('an object id with markup', 400, event({ objectIDs: ['<script>'] })),
    send('a user token of 500 characters', 400, event({ userToken: 'a'.repeat(500) })),
    send('multipart', 415, `${part('events', '[]')}--${B}--\r\n`, multipart),
    send('a declared size over 128 KiB', 413, '{}', 'application/json', { 'content-length': String(128 * 1024 + 1) }),
  ];
}

function tokenAttempts(): Attempt[] {
  // The token call itself must survive broken cookies (it issues a fresh secret).
  return [
    { endpoint: 'GET /actions/blitz/csrf/token', label: 'a garbage secret cookie', status: 200, request: () => ({ method: 'GET', url: '/actions/blitz/csrf/token', headers: { cookie: '_csrf=garbage' } }) },
    { endpoint: 'GET /actions/blitz/csrf/token', label: 'broken percent-encoding in the cookie', status: 200, request: () => ({ method: 'GET', url: '/actions/blitz/csrf/token', headers: { cookie: '_csrf=%E0%A4%A; x=%%%' } }) },
  ];
}

const ATTEMPTS: Attempt[] = [
  ...contactAttempts(),
  ...watchlistAttempts('/api/watchlist', 'POST /api/watchlist'),
  ...watchlistAttempts('/api/watchlist/pdf', 'POST /api/watchlist/pdf'),
  ...surveyAttempts(),
  ...insightsAttempts(),
  ...readAttempts(),
  ...tokenAttempts(),
];

describeOnEachDatabase('product calls under abuse', (current) => {
  let app: FastifyInstance;
  let port: number;
  // The survey calls go through the shell's proxy to the survey service (its own process and storage).
  let surveyService: SurveyServiceUnderTest;
  let watchlistService: TeamServiceUnderTest;
  let insightsService: TeamServiceUnderTest;
  // The contact post goes through the shell's checks to the contact service (its own process and storage).
  let contactService: TeamServiceUnderTest;
  interface Seen {
    tried: string[];
    statuses: Map<number, number>;
    serverErrors: number;
  }
  const seen = new Map<string, Seen>();
  const snapshot = async () => {
    const counts: Record<string, number> = {};
    const folder = path.join(current().dataDir, CONTACT_ATTACHMENTS_FOLDER);
    counts.attachmentFiles = existsSync(folder) ? readdirSync(folder).length : 0;
    counts.surveyVotes = await surveyService.countVotes();
    counts.watchlistShares = await watchlistService.countRows('watchlist_shares');
    counts.insightsEvents = await insightsService.countRows('insights_events');
    counts.contactRequests = await contactService.countRows('contact_requests');
    return counts;
  };
  const record = (attempt: Pick<Attempt, 'endpoint' | 'label'>, status: number) => {
    const entry: Seen = seen.get(attempt.endpoint) ?? { tried: [], statuses: new Map(), serverErrors: 0 };
    entry.tried.push(attempt.label);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    if (status >= 500) entry.serverErrors += 1;
    seen.set(attempt.endpoint, entry);
  };

  beforeAll(async () => {
    const { db, dataDir } = current();
    const postgresUrl = db.dialect === 'postgres' ? testDatabaseUrl() : undefined;
    surveyService = await startSurveyServiceForTest({ dataDir, postgresUrl });
    watchlistService = await startTeamServiceForTest('watchlist', { dataDir, postgresUrl });
    insightsService = await startTeamServiceForTest('search-team', { dataDir, postgresUrl, storageName: 'insights' });
    contactService = await startTeamServiceForTest('contact', { dataDir, postgresUrl });
    const config = readShellConfig({
      PUBLIC_BASE_URL,
      ALLOWED_HOSTS: ALLOWED_HOST,
      DATA_DIR: dataDir,
      SURVEY_SERVICE_URL: surveyService.urls.join(','),
      WATCHLIST_SERVICE_URL: watchlistService.urls.join(','),
      SEARCH_TEAM_SERVICE_URL: insightsService.urls.join(','),
      CONTACT_SERVICE_URL: contactService.urls.join(','),
    });
    const linkOrigin = createLinkOriginResolver({ publicBaseUrl: config.publicBaseUrl!, allowedHosts: config.allowedHosts });
    ({ app } = await buildShellApp({
      config,
      content,
      rateLimitCounters: db.rateLimitCounters,
      features: productFeatures({ config, database: db, linkOrigin }),
    }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  }, 60_000); // three service processes start first
  afterAll(async () => {
    await app?.close();
    await surveyService?.stop();
    await watchlistService?.stop();
    await insightsService?.stop();
    await contactService?.stop();
    const rows = [...seen].map(([endpoint, { tried, statuses, serverErrors }]) =>
      `  ${endpoint}: ${tried.length} tried, statuses ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}, 5xx: ${serverErrors}`,
    );
    console.log(`product calls under abuse (${current().db.dialect}):\n${rows.join('\n')}`);
  });

  it.each(ATTEMPTS.map((attempt) => [`${attempt.endpoint}: ${attempt.label}`, attempt] as const))('%s', async (_name, attempt) => {
    const before = await snapshot();
    const credentials = await fetchCsrf(app);
    const options = await attempt.request(credentials);
    const response = await app.inject({ ...options, remoteAddress: uniqueClientAddress() });
    record(attempt, response.statusCode);
    if (attempt.status === '4xx') {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    } else {
      expect(response.statusCode).toBe(attempt.status);
    }
    if (response.statusCode >= 400) {
      expect(response.headers['content-type']).toMatch(attempt.html ? /^text\/html/ : /^application\/json/);
      // The one error shape, framework errors included.
      if (!attempt.html) expect(response.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it(`answers the (${CONTACT_LIMIT.max} + 1)th contact post from one address with a 429 page, storing nothing more`, async () => {
    const address = uniqueClientAddress();
    const before = await snapshot();
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i <= CONTACT_LIMIT.max; i += 1) {
      const { cookie, token } = await fetchCsrf(app);
      const { payload, contentType } = await multipartBody([['_csrf', token], ['name', ''], ['email', 'x'], ['message', '']]);
      last = await app.inject({ method: 'POST', url: '/contact', remoteAddress: address, headers: { cookie, 'content-type': contentType }, payload });
      statuses.push(last.statusCode);
      record({ endpoint: 'POST /contact', label: `flood ${i + 1}` }, last.statusCode);
    }
    expect(statuses).toEqual([...Array(CONTACT_LIMIT.max).fill(422), 429]);
    expect(last!.headers['content-type']).toMatch(/^text\/html/);
    expect(last!.body).toContain('Too many requests from your network');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
  });

  describe('absolute links', () => {
    const share = async (headers: Record<string, string>) => {
      const { cookie, token } = await fetchCsrf(app);
      return app.inject({
        method: 'POST',
        url: '/api/watchlist',
        remoteAddress: uniqueClientAddress(),
        headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ storedWatchlist: { articles: { [article.id]: { title: article.title } } } }),
      });
    };
    const sharingUrl = (response: LightMyRequestResponse) => (response.json() as { storedWatchlist: { sharingUrl: string } }).storedWatchlist.sharingUrl;

    it.each<[string, Record<string, string>]>([
      ['X-Forwarded-Host: evil.example', { 'x-forwarded-host': 'evil.example' }],
      ['Host: evil.example', { host: 'evil.example' }],
      ['Host: evil.example and X-Forwarded-Proto/Host', { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }],
      ['Forwarded: host=evil.example', { forwarded: 'host=evil.example;proto=http' }],
    ])('a forged %s never reaches the sharing URL', async (_label, headers) => {
      const response = await share(headers);
      expect(response.statusCode).toBe(200);
      expect(sharingUrl(response)).toMatch(new RegExp(`^${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/watchlist/shared/[A-Za-z0-9_-]{22}$`));
      expect(response.body).not.toContain('evil.example');
    });

    it('an allowed host gets links on its own host', async () => {
      const response = await share({ host: ALLOWED_HOST });
      expect(sharingUrl(response)).toMatch(new RegExp(`^http://${ALLOWED_HOST.replace(/\./g, '\\.')}/watchlist/shared/`));
    });

    it('the PDF links use the public base URL whatever X-Forwarded-Host says', async () => {
      const { cookie, token } = await fetchCsrf(app);
      const response = await app.inject({
        method: 'POST',
        url: '/api/watchlist/pdf',
        remoteAddress: uniqueClientAddress(),
        headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json', 'x-forwarded-host': 'evil.example', host: 'evil.example' },
        payload: JSON.stringify({ storedWatchlist: { articles: { [article.id]: { title: article.title } } } }),
      });
      expect(response.statusCode).toBe(200);
      const text = await pdfText(response.rawPayload);
      expect(text).toContain(`${PUBLIC_BASE_URL}${article.url}`);
      expect(text).not.toContain('evil.example');
    });
  });

  it('refuses a contact upload by its headers alone, before its body is sent (real socket)', async () => {
    // Each request declares 5 MB and sends none of it: an answer proves nothing waited for the body.
    const { cookie } = await fetchCsrf(app);
    const ask = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/contact', headers: { 'content-type': multipart, 'content-length': String(5 * 1024 * 1024), ...headers } });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
          request.destroy();
        });
        request.on('error', reject);
        request.flushHeaders();
      });
    expect(await ask({})).toBe(403); // no secret cookie
    expect(await ask({ cookie, 'content-length': String(CONTACT_BODY_MAX_BYTES + 1) })).toBe(413);
    expect(await ask({ cookie, 'content-type': 'application/json' })).toBe(415);
  });

  it('refuses a wrong token as soon as its field arrives, before the file behind it (real socket)', async () => {
    const { cookie } = await fetchCsrf(app);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/contact', headers: { cookie, 'content-type': multipart, 'content-length': String(5 * 1024 * 1024) } });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
      // The token field and the start of a file part; the 5 MB of file never follow.
      request.write(`${part('_csrf', 'forged-token')}--${B}\r\nContent-Disposition: form-data; name="attachment"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
    });
    expect(status).toBe(403);
  });

  it('no endpoint answered a 5xx', () => {
    const failures = [...seen].filter(([, entry]) => entry.serverErrors > 0).map(([endpoint]) => endpoint);
    expect(failures).toEqual([]);
  });
});
