// The shell's reverse proxy against a stand-in upstream (a plain Fastify app on a free port that
// records what reaches it): what is checked at the edge, what is forwarded, and how a dead or slow
// service is answered.
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { EDGE_KEY_HEADER, VISITOR_ID_HEADER, edgeKeyOf } from '@khs/team-service/edge';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShellConfig } from '../config.js';
import { readShellConfig } from '../config.js';
import { CSRF_COOKIE_NAME } from '../security/csrf.js';
import { BrowserSession, uniqueClientAddress } from '../testing/browserSession.js';
import { buildTestApp, TEST_COOKIE_SECRET } from '../testing/buildTestApp.js';
import { closedPort } from '../testing/closedPort.js';
import { SERVICE_TIMEOUT_CODE, SERVICE_UNAVAILABLE_CODE } from './serviceProxy.js';
import type { EdgeRouteDeclaration } from './edgePolicy.js';
import { teamServiceProxies } from './teamServiceProxies.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrateSqlite } from '@khs/team-service';
import { SQLITE_MIGRATIONS } from '../database/migrations.js';
import { sqliteRateLimitLogRepository } from '../database/sqlite/sqliteRateLimitLogRepository.js';
import type { RateLimitLogRepository } from '../slidingWindows/slidingWindows.js';

/** What a service declares for one of its calls (its `slice.json`'s `service.edgePolicy`, as the shell reads it). */
function declared(service: keyof ShellConfig['services'], call: EdgeRouteDeclaration['call']): EdgeRouteDeclaration {
  const route = readShellConfig({}).services[service].edgePolicy.routes.find((entry) => entry.call === call);
  if (!route) throw new Error(`the ${service} service declares no ${call} call`);
  return route;
}
const SURVEY_SUBMIT = declared('survey', 'surveySubmit');
/** The survey's vote limit: sliding windows (at most `max` in any `windowMs`, each at once). */
const SURVEY_VOTE_WINDOWS = SURVEY_SUBMIT.rateLimit!.windows!;
/** The most votes one address and survey may send at once: the shortest window's allowance. */
const SURVEY_VOTE_BURST = [...SURVEY_VOTE_WINDOWS].sort((a, b) => a.windowMs - b.windowMs)[0]!;
const SURVEY_VOTE_HOURLY = SURVEY_VOTE_WINDOWS.find((window) => window.windowMs === 3_600_000)!;
/** A fixed-window limit as declared (`max` per `windowMs`). */
const fixedLimit = (service: keyof ShellConfig['services'], call: EdgeRouteDeclaration['call']) => {
  const { max, windowMs } = declared(service, call).rateLimit!;
  return { max: max!, windowMs: windowMs! };
};
const INSIGHTS_LIMIT = fixedLimit('search-team', 'insights');
const WATCHLIST_LIMIT = fixedLimit('watchlist', 'watchlist');
const WATCHLIST_PDF_LIMIT = fixedLimit('watchlist', 'download');

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A stand-in survey service: records each request and answers 201 with what it got. */
async function startUpstream(name: string, seen: Seen[]): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: (request.body as string | undefined) ?? '' });
    if (request.url.startsWith('/api/survey-results/slow')) await new Promise((resolve) => setTimeout(resolve, 5_000));
    return reply.code(request.method === 'POST' ? 201 : 200).header('x-upstream', name).header('cache-control', 'no-store').send({ upstream: name });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as net.AddressInfo;
  return { app, url: `http://127.0.0.1:${address.port}` };
}

async function shellWithSurveyAt(surveyServiceUrl: string, env: Record<string, string> = {}, rateLimitLogs?: RateLimitLogRepository) {
  const config: ShellConfig = readShellConfig({ SURVEY_SERVICE_URL: surveyServiceUrl, ...env });
  const { app } = await buildTestApp({
    env: { SURVEY_SERVICE_URL: surveyServiceUrl, ...env },
    features: teamServiceProxies({ config, linkOrigin: () => 'http://localhost', ...(rateLimitLogs ? { rateLimitLogs } : {}) }),
  });
  await app.ready();
  return app;
}

describe('the shell proxy to a team service', () => {
  const seen: Seen[] = [];
  let upstream: { app: FastifyInstance; url: string };
  let app: FastifyInstance;
  beforeAll(async () => {
    upstream = await startUpstream('one', seen);
    app = await shellWithSurveyAt(upstream.url);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.app.close();
  });
  afterEach(() => {
    seen.length = 0;
  });

  it('forwards the results call at the same path, query included, and passes the answer back', async () => {
    const response = await app.inject({ url: '/api/survey-results/coffee?fresh=1', headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ upstream: 'one' });
    expect(response.headers['x-upstream']).toBe('one');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /api/survey-results/coffee?fresh=1']);
  });

  it('refuses a submission without a CSRF token at the edge: 403 JSON, nothing forwarded', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/surveys/coffee/submissions', headers: { 'content-type': 'application/json' }, payload: '{"answerPosition":1}' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: expect.any(String) });
    expect(seen).toEqual([]);
  });

  it('refuses a token from another browser and a forged secret cookie: nothing forwarded', async () => {
    const other = new BrowserSession(app);
    const token = await other.csrfToken();
    expect((await new BrowserSession(app).submit('coffee', '{"answerPosition":1}', token)).statusCode).toBe(403);
    const forger = new BrowserSession(app);
    forger.cookies.set(CSRF_COOKIE_NAME, decodeURIComponent(other.cookies.get(CSRF_COOKIE_NAME)!).split('.')[0]!);
    expect((await forger.submit('coffee', '{"answerPosition":1}', token)).statusCode).toBe(403);
    expect(seen).toEqual([]);
  });

  it('forwards a checked submission: the body as sent, the voter id and edge key set by the edge, no cookie, no token, no forged edge headers', async () => {
    const browser = new BrowserSession(app);
    const token = await browser.csrfToken();
    const payload = '{"answerPosition": 1}';
    const response = await browser.request({
      method: 'POST',
      url: '/api/surveys/coffee/submissions',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, [VISITOR_ID_HEADER]: 'forged-voter-id-000000', [EDGE_KEY_HEADER]: 'forged', 'x-forwarded-for': '1.2.3.4' },
      payload,
    });
    expect(response.statusCode).toBe(201);
    expect(seen).toHaveLength(1);
    const [forwarded] = seen as [Seen];
    expect(forwarded.body).toBe(payload);
    expect(forwarded.headers['content-type']).toBe('application/json');
    // The survey service's own edge key, nothing derived from the shell's cookie secret.
    expect(forwarded.headers[EDGE_KEY_HEADER]).toBe(readShellConfig({}).edgeKeys.survey);
    expect(forwarded.headers[EDGE_KEY_HEADER]).not.toBe(edgeKeyOf(TEST_COOKIE_SECRET));
    expect(forwarded.headers[VISITOR_ID_HEADER]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(forwarded.headers[VISITOR_ID_HEADER]).not.toBe('forged-voter-id-000000');
    expect(forwarded.headers.cookie).toBeUndefined();
    expect(forwarded.headers['x-csrf-token']).toBeUndefined();
    expect(forwarded.headers['x-forwarded-for']).toBe(browser.address);

    // The same browser is the same voter; another browser another one; the results call names nobody.
    await browser.submit('coffee', payload);
    await new BrowserSession(app).submit('coffee', payload);
    await app.inject({ url: '/api/survey-results/coffee', headers: { cookie: browser.cookieHeader } });
    const [, again, other, results] = seen as [Seen, Seen, Seen, Seen];
    expect(again.headers[VISITOR_ID_HEADER]).toBe(forwarded.headers[VISITOR_ID_HEADER]);
    expect(other.headers[VISITOR_ID_HEADER]).not.toBe(forwarded.headers[VISITOR_ID_HEADER]);
    expect(results.headers[VISITOR_ID_HEADER]).toBeUndefined();
    expect(results.headers.cookie).toBeUndefined();
    expect(SURVEY_SUBMIT.visitorIdPurpose).toBe('survey-vote'); // earlier votes keep their voters
  });

  it('refuses a body declared larger than the route\'s edge cap with 413 JSON, forwarding nothing', async () => {
    const browser = new BrowserSession(app);
    const token = await browser.csrfToken();
    const response = await browser.request({
      method: 'POST',
      url: '/api/surveys/coffee/submissions',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, 'content-length': String(SURVEY_SUBMIT.bodyLimitBytes! + 1) },
      payload: '{"answerPosition":1}',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: expect.any(String) });
    expect(seen).toEqual([]);
  });

  it(`limits submissions per address and survey at the edge: the ${SURVEY_VOTE_BURST.max + 1}th at once gets a 429 JSON with Retry-After and is not forwarded`, async () => {
    const address = uniqueClientAddress();
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i <= SURVEY_VOTE_BURST.max; i += 1) {
      const response = await new BrowserSession(app, address).submit('coffee', '{"answerPosition":1}');
      statuses.push(response.statusCode);
      if (response.statusCode === 429) refused = response;
    }
    expect(statuses).toEqual([...Array(SURVEY_VOTE_BURST.max).fill(201), 429]);
    expect(refused!.json()).toMatchObject({ error: expect.any(String), code: 'rate-limited' });
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused!.headers['retry-after'])).toBeLessThanOrEqual(SURVEY_VOTE_BURST.windowMs / 1000);
    expect(seen.filter((request) => request.method === 'POST')).toHaveLength(SURVEY_VOTE_BURST.max);
    // Another survey from the same address has its own allowance (counted per `formHandle`, the declared scope).
    expect((await new BrowserSession(app, address).submit('made-up', '{"answerPosition":1}')).statusCode).toBe(201);
  });
});

// Issue 34: votes from a shared address. The survey's limit is sliding windows on a log (here the
// shell's SQLite storage, with an injected clock), so an office votes through the day while a script
// with fresh cookies stays at the declared rate.
describe('survey votes behind one address, with an injected clock (sliding windows on the SQLite log)', () => {
  const seen: Seen[] = [];
  let upstream: { app: FastifyInstance; url: string };
  let app: FastifyInstance;
  let dataDir: string;
  let db: BetterSqlite3.Database;
  let now = Date.UTC(2026, 0, 5, 9, 0, 0);
  beforeAll(async () => {
    upstream = await startUpstream('office', seen);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-vote-limit-'));
    db = new BetterSqlite3(path.join(dataDir, 'khs.sqlite'));
    migrateSqlite(db, SQLITE_MIGRATIONS);
    app = await shellWithSurveyAt(upstream.url, {}, sqliteRateLimitLogRepository(db, () => now));
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.app.close();
    db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    seen.length = 0;
  });

  it('200 voters behind one address on one survey, one every 20 s (an office over an hour), are all counted', async () => {
    const address = uniqueClientAddress();
    const statuses: number[] = [];
    for (let voter = 0; voter < 200; voter += 1) {
      statuses.push((await new BrowserSession(app, address).submit('office-poll', '{"answerPosition":1}')).statusCode);
      now += 20_000;
    }
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    expect(seen.filter((request) => request.method === 'POST')).toHaveLength(200);
  }, 120_000);

  it(`the same voters as fast as possible are held to the declared rate: ${SURVEY_VOTE_BURST.max} in any minute, ${SURVEY_VOTE_HOURLY.max} in any hour, each refusal saying when to try again`, async () => {
    const address = uniqueClientAddress();
    const start = now;
    const accepted: number[] = [];
    let refusals = 0;
    // A script with fresh cookies for every vote: it sends again at once after a vote, and as soon as Retry-After allows after a 429.
    while (now < start + 2 * 3_600_000) {
      const response = await new BrowserSession(app, address).submit('office-poll', '{"answerPosition":1}');
      if (response.statusCode === 201) {
        accepted.push(now);
        now += 1;
        continue;
      }
      expect(response.statusCode).toBe(429);
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      refusals += 1;
      now += retryAfter * 1000;
    }
    const mostIn = (windowMs: number) => Math.max(...accepted.map((time) => accepted.filter((other) => other >= time && other < time + windowMs).length));
    expect(mostIn(SURVEY_VOTE_BURST.windowMs)).toBe(SURVEY_VOTE_BURST.max);
    expect(mostIn(SURVEY_VOTE_HOURLY.windowMs)).toBe(SURVEY_VOTE_HOURLY.max);
    // Over two hours: the hourly allowance twice, and a retry never came back refused for long.
    expect(accepted).toHaveLength(2 * SURVEY_VOTE_HOURLY.max);
    expect(seen.filter((request) => request.method === 'POST')).toHaveLength(accepted.length);
    console.log(`a script voting as fast as Retry-After allows for two hours from one address: ${accepted.length} counted, ${refusals} refused`);
  }, 240_000);
});

describe('the insights collector behind the proxy: no CSRF token (beacons), limited per address at the edge', () => {
  it(`forwards a beacon without a token, and refuses the (${INSIGHTS_LIMIT.max} + 1)th request of an address with 429 JSON, forwarding nothing more`, async () => {
    const seen: Seen[] = [];
    const upstream = await startUpstream('insights', seen);
    const app = await shellWithSurveyAt(upstream.url, { SEARCH_TEAM_SERVICE_URL: upstream.url });
    try {
      const address = uniqueClientAddress();
      const send = () => app.inject({ method: 'POST', url: '/api/insights/events', remoteAddress: address, headers: { 'content-type': 'text/plain;charset=UTF-8' }, payload: '{"events":[]}' });
      const statuses: number[] = [];
      for (let i = 0; i <= INSIGHTS_LIMIT.max; i += 1) statuses.push((await send()).statusCode);
      expect(statuses).toEqual([...Array(INSIGHTS_LIMIT.max).fill(201), 429]);
      expect(seen).toHaveLength(INSIGHTS_LIMIT.max);
      expect(seen[0]).toMatchObject({ url: '/api/insights/events', body: '{"events":[]}' });
      // Another address is not affected.
      expect((await app.inject({ method: 'POST', url: '/api/insights/events', remoteAddress: uniqueClientAddress(), headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(201);
    } finally {
      await app.close();
      await upstream.app.close();
    }
  });
});

describe('the watchlist service behind the proxy: share links limited per address at the edge', () => {
  it(`forwards the watchlist call with the share creator's visitor id, refuses the (${WATCHLIST_LIMIT.max} + 1)th of an address with 429 JSON; the PDF call has its own ${WATCHLIST_PDF_LIMIT.max}`, async () => {
    const seen: Seen[] = [];
    const upstream = await startUpstream('watchlist', seen);
    const app = await shellWithSurveyAt(upstream.url, { WATCHLIST_SERVICE_URL: upstream.url });
    try {
      const browser = new BrowserSession(app);
      const token = await browser.csrfToken();
      const send = (url: string) => browser.request({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-csrf-token': token }, payload: '{"storedWatchlist":{"articles":{}}}' });
      const statuses: number[] = [];
      let refused;
      for (let i = 0; i <= WATCHLIST_LIMIT.max; i += 1) {
        const response = await send('/api/watchlist');
        statuses.push(response.statusCode);
        if (response.statusCode === 429) refused = response;
      }
      expect(statuses).toEqual([...Array(WATCHLIST_LIMIT.max).fill(201), 429]);
      expect(refused!.json()).toEqual({ error: expect.any(String), code: 'rate-limited' });
      expect(seen).toHaveLength(WATCHLIST_LIMIT.max);
      // The visitor id of the share-link bound: the same for one browser, derived for its own purpose.
      expect(seen[0]!.headers[VISITOR_ID_HEADER]).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(new Set(seen.map((request) => request.headers[VISITOR_ID_HEADER])).size).toBe(1);
      expect(declared('watchlist', 'watchlist').visitorIdPurpose).not.toBe(SURVEY_SUBMIT.visitorIdPurpose);
      // The PDF call is counted apart (and names nobody).
      const pdf = await send('/api/watchlist/pdf');
      expect(pdf.statusCode).toBe(201);
      expect(seen.at(-1)!.headers[VISITOR_ID_HEADER]).toBeUndefined();
      const pdfStatuses: number[] = [pdf.statusCode];
      for (let i = 1; i <= WATCHLIST_PDF_LIMIT.max; i += 1) pdfStatuses.push((await send('/api/watchlist/pdf')).statusCode);
      expect(pdfStatuses).toEqual([...Array(WATCHLIST_PDF_LIMIT.max).fill(201), 429]);
    } finally {
      await app.close();
      await upstream.app.close();
    }
  });
});

describe('a team service that is down or slow', () => {
  it('answers 503 JSON (service-unavailable) when nothing listens, and the pages go on', async () => {
    const app = await shellWithSurveyAt(`http://127.0.0.1:${await closedPort()}`);
    try {
      const started = Date.now();
      const results = await app.inject({ url: '/api/survey-results/coffee', headers: { accept: 'application/json' } });
      const elapsedMs = Date.now() - started;
      expect(results.statusCode).toBe(503);
      expect(results.headers['content-type']).toMatch(/^application\/json/);
      expect(results.headers['cache-control']).toBe('no-store');
      expect(results.json()).toEqual({ error: 'The survey service is not available right now. Please try again later.', code: SERVICE_UNAVAILABLE_CODE });
      console.log(`dead survey service: 503 after ${elapsedMs} ms`);
      const vote = await new BrowserSession(app).submit('coffee', '{"answerPosition":1}');
      expect(vote.statusCode).toBe(503);
      expect(vote.json()).toMatchObject({ code: SERVICE_UNAVAILABLE_CODE });
      // Over a real socket too: the failed forward does not cut the visitor's connection.
      await app.listen({ host: '127.0.0.1', port: 0 });
      const origin = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
      const tokenResponse = await fetch(`${origin}/actions/blitz/csrf/token`);
      const cookie = tokenResponse.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
      const overSocket = await fetch(`${origin}/api/surveys/coffee/submissions`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': await tokenResponse.text(), 'content-type': 'application/json' },
        body: JSON.stringify({ answerPosition: 1, padding: 'x'.repeat(900) }),
      });
      expect(overSocket.status).toBe(503);
      expect(await overSocket.json()).toMatchObject({ code: SERVICE_UNAVAILABLE_CODE });
      // The host's own calls are untouched.
      expect((await app.inject({ url: '/actions/blitz/csrf/token' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers 504 JSON (service-timeout) when the service does not answer within SERVICE_TIMEOUT_MS', async () => {
    const seen: Seen[] = [];
    const upstream = await startUpstream('slow', seen);
    const app = await shellWithSurveyAt(upstream.url, { SERVICE_TIMEOUT_MS: '300' });
    try {
      const response = await app.inject({ url: '/api/survey-results/slow' });
      expect(response.statusCode).toBe(504);
      expect(response.json()).toMatchObject({ error: expect.any(String), code: SERVICE_TIMEOUT_CODE });
    } finally {
      await app.close();
      await upstream.app.close();
    }
  });

  it('balances over several instances (SURVEY_SERVICE_URL with a comma-separated list)', async () => {
    const seenA: Seen[] = [];
    const seenB: Seen[] = [];
    const [a, b] = [await startUpstream('a', seenA), await startUpstream('b', seenB)];
    const app = await shellWithSurveyAt(`${a.url},${b.url}`);
    try {
      const answeredBy = new Set<string>();
      for (let i = 0; i < 10; i += 1) answeredBy.add(String((await app.inject({ url: '/api/survey-results/coffee' })).headers['x-upstream']));
      expect([...answeredBy].sort()).toEqual(['a', 'b']);
      expect(seenA.length + seenB.length).toBe(10);
    } finally {
      await app.close();
      await a.app.close();
      await b.app.close();
    }
  });
});
