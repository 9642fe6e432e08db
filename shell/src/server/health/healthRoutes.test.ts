import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ISLAND_FAILURE_REPORT_PATH, type IslandFailureReport } from '../../shared/islandFailureReport.js';
import { readShellConfig } from '../config.js';
import type { RemotePollState } from '../federation/serverFederation.js';
import { ISLAND_FAILURE_LIMIT, OPERATOR_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { uniqueClientAddress } from '../testing/browserSession.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { ISLAND_FAILURE_BODY_LIMIT_BYTES, REMOTES_HEALTH_JSON_PATH, REMOTES_HEALTH_PATH, healthRoutes, type HealthRoutesOptions } from './healthRoutes.js';
import { IslandFailureCounts } from '../islandFailures/islandFailureCounts.js';
import type { RemotesHealth } from './remotesHealth.js';

const TOKEN = 'operator-token-for-tests-0123456789';
const { remotes } = readShellConfig({});
const T0 = Date.parse('2026-11-22T10:00:00Z');

const POLL_STATES: RemotePollState[] = [
  {
    remote: 'mf-search',
    manifestUrl: remotes[0]!.entry,
    lastPoll: { at: T0 + 5_000, ok: true },
    buildVersion: '0.1.0+0123456789ab',
    contractsVersion: '1.1.0',
    changedAt: T0,
    deployedAt: '2026-11-22T09:58:30.000Z',
    generation: 2,
  },
  {
    remote: 'mf-watchlist',
    manifestUrl: remotes[1]!.entry,
    lastPoll: { at: T0 + 6_000, ok: false, error: 'manifest of "mf-watchlist": fetch failed' },
    buildVersion: '0.1.0+ba9876543210',
    changedAt: T0 - 60_000,
    generation: 0,
  },
  { remote: 'mf-survey', manifestUrl: remotes[2]!.entry, generation: 0 },
];

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(overrides: Partial<HealthRoutesOptions> = {}) {
  let clock = T0 + 10_000;
  const failureCounts = new IslandFailureCounts({ now: () => clock });
  ({ app } = await buildTestApp({
    features: [
      {
        plugin: healthRoutes,
        options: { remotes, operatorToken: TOKEN, pollStates: () => POLL_STATES, failureCounts, now: () => clock, ...overrides } satisfies HealthRoutesOptions,
      },
    ],
  }));
  await app.ready();
  return { app: app!, failureCounts, advance: (ms: number) => (clock += ms) };
}

const report = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  remote: 'mf-watchlist',
  module: './WatchlistButton',
  stage: 'entry',
  code: 'KHS-ISLAND-002',
  remoteVersion: '0.1.0+ba9876543210',
  contractsVersion: '1.1.0',
  ...overrides,
});

function beacon(server: FastifyInstance, body: unknown, { contentType = 'application/json', address = uniqueClientAddress() } = {}) {
  return server.inject({
    method: 'POST',
    url: ISLAND_FAILURE_REPORT_PATH,
    remoteAddress: address,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const asOperator = (server: FastifyInstance, url = REMOTES_HEALTH_JSON_PATH, headers: Record<string, string> = {}) =>
  server.inject({ method: 'GET', url, remoteAddress: uniqueClientAddress(), headers: { authorization: `Bearer ${TOKEN}`, ...headers } });

describe('POST /api/island-failures (the failure beacon)', () => {
  it('counts a valid report without a CSRF token (sendBeacon cannot send one) and answers 204', async () => {
    const { app } = await start();
    const response = await beacon(app, report());
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    // A beacon sent with a string arrives as text/plain.
    expect((await beacon(app, JSON.stringify(report({ code: 'KHS-ISLAND-007', stage: 'hydrate' })), { contentType: 'text/plain;charset=UTF-8' })).statusCode).toBe(204);
    const health = (await asOperator(app)).json() as RemotesHealth;
    expect(health.remotes.find((remote) => remote.name === 'mf-watchlist')!.failures).toEqual({
      total: 2,
      browser: { 'KHS-ISLAND-002': 1, 'KHS-ISLAND-007': 1 },
      server: {},
      browserVersions: { '0.1.0+ba9876543210': 2 },
      serverVersions: {},
      views: {},
    });
  });

  it('refuses bad reports with a 400 JSON error naming the problem, and counts none of them', async () => {
    const { app } = await start();
    const cases: Array<[unknown, RegExp]> = [
      [report({ remote: 'mf-unknown' }), /remote must be one of: mf-search, mf-watchlist, mf-survey, mf-widgets/],
      [report({ stage: 'boot' }), /stage must be one of/],
      [report({ code: 'KHS-ISLAND-999' }), /code must be a published KHS-ISLAND-0xx code/],
      [report({ code: 'toString' }), /code must be/],
      [report({ module: 'x'.repeat(101) }), /module must be a string of 1 to 100 printable characters/],
      [report({ remoteVersion: 'has space' }), /remoteVersion must be/],
      [report({ contractsVersion: 1 }), /contractsVersion must be/],
      [report({ extra: 'field' }), /unknown field\(s\): extra/],
      [[report()], /must be a JSON object/],
      ['{not json', /must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const response = await beacon(app, body, { contentType: typeof body === 'string' ? 'text/plain' : 'application/json' });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: expect.stringMatching(message), code: 'invalid-island-failure-report' });
    }
    const health = (await asOperator(app)).json() as RemotesHealth;
    expect(health.remotes.map((remote) => remote.failures.total)).toEqual([0, 0, 0, 0]);
  });

  it('counts a page report: one view per remote build it ran, and its failures with their builds', async () => {
    const { app } = await start();
    const pageReport = {
      views: { 'mf-watchlist': '2.0.0+canary', 'mf-search': '1.0.0+stable' },
      failures: [report({ code: 'KHS-ISLAND-010', stage: 'hydrate', remoteVersion: '2.0.0+canary' })],
    };
    expect((await beacon(app, pageReport)).statusCode).toBe(204);
    expect((await beacon(app, { views: { 'mf-watchlist': '2.0.0+canary' } })).statusCode).toBe(204);
    const health = (await asOperator(app)).json() as RemotesHealth;
    const failuresOf = (name: string) => health.remotes.find((remote) => remote.name === name)!.failures;
    expect(failuresOf('mf-watchlist')).toEqual({
      total: 1,
      browser: { 'KHS-ISLAND-010': 1 },
      server: {},
      browserVersions: { '2.0.0+canary': 1 },
      serverVersions: {},
      views: { '2.0.0+canary': 2 },
    });
    expect(failuresOf('mf-search')).toMatchObject({ total: 0, views: { '1.0.0+stable': 1 } });
  });

  it('refuses a bad page report whole (400), counting none of its views or failures', async () => {
    const { app } = await start();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /needs views or failures/],
      [{ views: { 'mf-unknown': '1' } }, /views: remote must be one of/],
      [{ views: { 'mf-search': 'has space' } }, /views: the build version of mf-search must be/],
      [{ views: ['mf-search'] }, /views must be an object/],
      [{ views: { 'mf-search': '1' }, failures: [report(), report({ code: 'KHS-ISLAND-999' })] }, /failures\[1\]: code must be/],
      [{ failures: Array.from({ length: 11 }, () => report()) }, /at most 10 failure reports/],
      [{ views: { 'mf-search': '1' }, sneaky: true }, /unknown field\(s\): sneaky/],
    ];
    for (const [body, message] of cases) {
      const response = await beacon(app, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: expect.stringMatching(message), code: 'invalid-island-failure-report' });
    }
    const health = (await asOperator(app)).json() as RemotesHealth;
    expect(health.remotes.map((remote) => [remote.failures.total, Object.keys(remote.failures.views).length])).toEqual([[0, 0], [0, 0], [0, 0], [0, 0]]);
  });

  it('refuses a body over the limit (413) and other media types (415), as JSON', async () => {
    const { app } = await start();
    const big = await beacon(app, report({ module: 'x'.repeat(ISLAND_FAILURE_BODY_LIMIT_BYTES) }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: expect.any(String) });
    const form = await beacon(app, 'remote=mf-search', { contentType: 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ error: expect.any(String) });
  });

  it('limits each client address (429 after the allowance), other addresses unaffected', async () => {
    const { app } = await start();
    const address = uniqueClientAddress();
    for (let index = 0; index < ISLAND_FAILURE_LIMIT.max; index += 1) expect((await beacon(app, report(), { address })).statusCode).toBe(204);
    const refused = await beacon(app, report(), { address });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate-limited' });
    expect((await beacon(app, report())).statusCode).toBe(204);
    const health = (await asOperator(app)).json() as RemotesHealth;
    expect(health.remotes.find((remote) => remote.name === 'mf-watchlist')!.failures.total).toBe(ISLAND_FAILURE_LIMIT.max + 1);
  });
});

describe('GET /health/remotes (operators)', () => {
  it('answers the JSON with each remote: manifest, last poll, versions, when it changed, recent failures by source and code', async () => {
    const { app, failureCounts } = await start();
    failureCounts.record('mf-search', 'server', 'KHS-ISLAND-008');
    failureCounts.record('mf-search', 'server', 'KHS-ISLAND-008');
    await beacon(app, report({ remote: 'mf-search', code: 'KHS-ISLAND-003', stage: 'entry' }));
    const response = await asOperator(app);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const health = response.json() as RemotesHealth;
    expect(health).toMatchObject({ generatedAt: '2026-11-22T10:00:10.000Z', serverIslands: true, failureWindowSeconds: 900 });
    expect(health.remotes).toEqual([
      {
        name: 'mf-search',
        manifestUrl: remotes[0]!.entry,
        reachable: true,
        lastPollAt: '2026-11-22T10:00:05.000Z',
        lastPollError: null,
        buildVersion: '0.1.0+0123456789ab',
        contractsVersion: '1.1.0',
        deployedAt: '2026-11-22T09:58:30.000Z',
        changedAt: '2026-11-22T10:00:00.000Z',
        buildChanges: 2,
        failures: { total: 3, browser: { 'KHS-ISLAND-003': 1 }, server: { 'KHS-ISLAND-008': 2 }, browserVersions: { '0.1.0+ba9876543210': 1 }, serverVersions: {}, views: {} },
        canary: null,
      },
      {
        name: 'mf-watchlist',
        manifestUrl: remotes[1]!.entry,
        reachable: false,
        lastPollAt: '2026-11-22T10:00:06.000Z',
        lastPollError: 'manifest of "mf-watchlist": fetch failed',
        buildVersion: '0.1.0+ba9876543210',
        contractsVersion: null,
        deployedAt: null,
        changedAt: '2026-11-22T09:59:00.000Z',
        buildChanges: 0,
        failures: { total: 0, browser: {}, server: {}, browserVersions: {}, serverVersions: {}, views: {} },
        canary: null,
      },
      expect.objectContaining({ name: 'mf-survey', reachable: null, lastPollAt: null, buildVersion: null, changedAt: null }),
      expect.objectContaining({ name: 'mf-widgets', reachable: null, manifestUrl: remotes[3]!.entry }),
    ]);
    // The same JSON by content negotiation on the HTML path.
    const negotiated = await asOperator(app, REMOTES_HEALTH_PATH, { accept: 'application/json' });
    expect(negotiated.json()).toEqual(health);
  });

  it('shows stable against canary with views and failure rates, the verdict while it runs, and why it ended', async () => {
    const rollout = { stable: '1.0.0+aaaa', canary: { version: '1.1.0+bbbb', share: 0.5, startedAt: '2026-11-22T09:50:00.000Z' }, ended: null };
    let end: { remote: string; version: string; reason: string; at: string } | undefined = undefined;
    const { app, failureCounts } = await start({
      canaryOf: (remote) => (remote === 'mf-search' ? { rollout, end, verdict: 'canary 1/4 views failed, stable 0/4: fewer than 20 canary views' } : undefined),
    });
    for (let view = 0; view < 4; view++) {
      failureCounts.recordView('mf-search', '1.0.0+aaaa');
      failureCounts.recordView('mf-search', '1.1.0+bbbb');
    }
    failureCounts.recordFailure({ remote: 'mf-search', source: 'browser', code: 'KHS-ISLAND-010', version: '1.1.0+bbbb' });
    const canaryOf = async () => ((await asOperator(app)).json() as RemotesHealth).remotes.find((remote) => remote.name === 'mf-search')!.canary;
    expect(await canaryOf()).toEqual({
      share: 0.5,
      startedAt: '2026-11-22T09:50:00.000Z',
      state: 'running',
      stable: { version: '1.0.0+aaaa', views: 4, failures: 0, failureRate: 0 },
      canary: { version: '1.1.0+bbbb', views: 4, failures: 1, failureRate: 0.25 },
      verdict: 'canary 1/4 views failed, stable 0/4: fewer than 20 canary views',
      ended: null,
    });
    end = { remote: 'mf-search', version: '1.1.0+bbbb', reason: 'canary fails 100.0 % of 20 views', at: '2026-11-22T10:00:05.000Z' };
    expect(await canaryOf()).toMatchObject({ state: 'ended', ended: { version: '1.1.0+bbbb', outcome: 'rolled-back', reason: 'canary fails 100.0 % of 20 views', at: '2026-11-22T10:00:05.000Z' } });
    const page = await asOperator(app, REMOTES_HEALTH_PATH, { accept: 'text/html' });
    expect(page.body).toContain('<h2>Canaries</h2>');
    expect(page.body).toContain('ended: rolled-back');
    expect(page.body).toContain('<code>1.1.0+bbbb</code>: 4 views, 1 failures (25.0 %)');
    expect(page.body).toContain('canary fails 100.0 % of 20 views');
  });

  it('forgets failures once they leave the 15-minute window', async () => {
    const { app, advance } = await start();
    await beacon(app, report());
    advance(14 * 60_000);
    await beacon(app, report({ code: 'KHS-ISLAND-001', stage: 'manifest' }));
    const counts = () => asOperator(app).then((response) => (response.json() as RemotesHealth).remotes[1]!.failures);
    expect(await counts()).toMatchObject({ total: 2 });
    advance(2 * 60_000 + 1);
    expect(await counts()).toEqual({ total: 1, browser: { 'KHS-ISLAND-001': 1 }, server: {}, browserVersions: { '0.1.0+ba9876543210': 1 }, serverVersions: {}, views: {} });
    advance(15 * 60_000);
    expect(await counts()).toEqual({ total: 0, browser: {}, server: {}, browserVersions: {}, serverVersions: {}, views: {} });
  });

  it('answers HTML for people: a token as the password of HTTP Basic works too', async () => {
    const { app } = await start();
    const response = await app.inject({
      method: 'GET',
      url: REMOTES_HEALTH_PATH,
      remoteAddress: uniqueClientAddress(),
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', authorization: `Basic ${Buffer.from(`operator:${TOKEN}`).toString('base64')}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toMatch(/^<!doctype html><html lang="en">/);
    expect(response.body).toContain('<th scope="row">mf-search</th>');
    expect(response.body).toContain('<code>0.1.0+0123456789ab</code>');
    expect(response.body).toContain('unreachable</span>: manifest of &quot;mf-watchlist&quot;: fetch failed');
  });

  it('refuses without the token or with a wrong one (401 with a challenge), before telling anything', async () => {
    const { app } = await start();
    for (const url of [REMOTES_HEALTH_PATH, REMOTES_HEALTH_JSON_PATH]) {
      for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Basic ${Buffer.from('operator:nope').toString('base64')}`, TOKEN]) {
        const response = await app.inject({ method: 'GET', url, remoteAddress: uniqueClientAddress(), headers: authorization ? { authorization } : {} });
        expect(response.statusCode, `${url} ${authorization}`).toBe(401);
        expect(response.headers['www-authenticate']).toEqual(['Bearer realm="khs-operator"', 'Basic realm="khs-operator", charset="UTF-8"']);
        expect(response.json()).toMatchObject({ code: 'operator-token-required' });
        expect(response.body).not.toContain('mf-search');
      }
    }
  });

  it('is off (the site\'s own 404, as for any unknown URL) when no OPERATOR_TOKEN is configured, while the beacon still counts', async () => {
    const { app } = await start({ operatorToken: undefined });
    const unknown = await app.inject({ method: 'GET', url: '/health/no-such-page' });
    expect(unknown.statusCode).toBe(404);
    for (const url of [REMOTES_HEALTH_PATH, REMOTES_HEALTH_JSON_PATH]) {
      const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(response.body.replaceAll(url, '')).toBe(unknown.body.replaceAll('/health/no-such-page', ''));
      expect(response.body).not.toContain('buildVersion');
    }
    expect((await beacon(app, report())).statusCode).toBe(204);
  });

  it('limits guessing: one address gets 429 after the allowance', async () => {
    const { app } = await start();
    const address = uniqueClientAddress();
    const guess = () => app.inject({ method: 'GET', url: REMOTES_HEALTH_JSON_PATH, remoteAddress: address, headers: { authorization: 'Bearer guess' } });
    for (let index = 0; index < OPERATOR_LIMIT.max; index += 1) expect((await guess()).statusCode).toBe(401);
    expect((await guess()).statusCode).toBe(429);
  });

  it('says when server islands are off: no poll state, versions unknown', async () => {
    const { app } = await start({ pollStates: undefined });
    const health = (await asOperator(app)).json() as RemotesHealth;
    expect(health.serverIslands).toBe(false);
    expect(health.remotes.every((remote) => remote.reachable === null && remote.buildVersion === null)).toBe(true);
  });
});

describe('the OPERATOR_TOKEN setting', () => {
  it('is optional, and refused when too short to resist guessing', () => {
    expect(readShellConfig({}).operatorToken).toBeUndefined();
    expect(readShellConfig({ OPERATOR_TOKEN: ` ${TOKEN} ` }).operatorToken).toBe(TOKEN);
    expect(() => readShellConfig({ OPERATOR_TOKEN: 'short' })).toThrow(/OPERATOR_TOKEN must be at least 16 characters/);
  });
});

// The report type the browser runtime sends is what the route accepts.
const _typed: IslandFailureReport = report() as unknown as IslandFailureReport;
void _typed;

describe('server-side failures', () => {
  it('count under the stable code of their stage, or the code the error carries', async () => {
    const { serverFailureCode } = await import('../federation/failureLog.js');
    expect(serverFailureCode('manifest', new Error('x'))).toBe('KHS-ISLAND-001');
    expect(serverFailureCode('load', new Error('x'))).toBe('KHS-ISLAND-002');
    expect(serverFailureCode('version', new Error('x'))).toBe('KHS-ISLAND-005');
    expect(serverFailureCode('render', new Error('x'))).toBe('KHS-ISLAND-008');
    expect(serverFailureCode('timeout', new Error('x'))).toBe('KHS-ISLAND-003');
    expect(serverFailureCode('compatibility', new Error('x'))).toBe('KHS-ISLAND-004');
    expect(serverFailureCode('load', Object.assign(new Error('x'), { code: 'KHS-ISLAND-004' }))).toBe('KHS-ISLAND-004');
    expect(serverFailureCode('load', Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('KHS-ISLAND-002');
  });
});

describe('failure counts per reported version', () => {
  it('tells apart at most a few versions per remote (browsers choose the string), the rest count as other', async () => {
    const { IslandFailureCounts: Counts, MAX_VERSIONS_PER_REMOTE } = await import('../islandFailures/islandFailureCounts.js');
    const counts = new Counts({ now: () => T0 });
    for (let index = 0; index < MAX_VERSIONS_PER_REMOTE + 5; index += 1) counts.record('mf-search', 'browser', 'KHS-ISLAND-002', `1.0.${index}`);
    counts.record('mf-search', 'browser', 'KHS-ISLAND-002');
    counts.record('mf-search', 'server', 'KHS-ISLAND-008');
    const recent = counts.recent('mf-search');
    expect(Object.keys(recent.browserVersions)).toHaveLength(MAX_VERSIONS_PER_REMOTE + 1);
    expect(recent.browserVersions.other).toBe(6);
    expect(recent.browserVersions['1.0.0']).toBe(1);
    expect(recent.total).toBe(MAX_VERSIONS_PER_REMOTE + 7);
  });
});
