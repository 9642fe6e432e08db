import { metricsText } from '@khs/observability';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readShellConfig } from '../config.js';
import { healthRoutes, METRICS_PATH, type HealthRoutesOptions } from '../health/healthRoutes.js';
import { IslandFailureCounts } from '../islandFailures/islandFailureCounts.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { ISLAND_FAILURE_REPORT_PATH } from '../../shared/islandFailureReport.js';
import { islandRenderMetrics, withBrowserReportMetrics } from './shellMetrics.js';

const TOKEN = 'operator-token-for-tests-0123456789';
const { remotes } = readShellConfig({});

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(operatorToken: string | undefined) {
  const failureCounts = withBrowserReportMetrics(new IslandFailureCounts());
  ({ app } = await buildTestApp({
    features: [{ plugin: healthRoutes, options: { remotes, operatorToken, failureCounts, metrics: metricsText } satisfies HealthRoutesOptions }],
  }));
  await app.ready();
  return app!;
}

const scrape = async (shell: FastifyInstance) => (await shell.inject({ url: METRICS_PATH, headers: { authorization: `Bearer ${TOKEN}` } })).body;

describe('the shell metrics', () => {
  it('answer 401 with the challenge without the token or with a wrong one, and 404 when no OPERATOR_TOKEN is set', async () => {
    const shell = await start(TOKEN);
    const missing = await shell.inject(METRICS_PATH);
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBeDefined();
    expect((await shell.inject({ url: METRICS_PATH, headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    await shell.close();
    app = undefined;
    expect((await (await start(undefined)).inject(METRICS_PATH)).statusCode).toBe(404);
  });

  it("count the browsers' failures and views per remote and build version, a flood of forged versions under `other`", async () => {
    const shell = await start(TOKEN);
    const remote = remotes[0]!.name;
    const beacon = (version: string) =>
      shell.inject({
        method: 'POST',
        url: ISLAND_FAILURE_REPORT_PATH,
        remoteAddress: '10.9.0.1',
        payload: { views: { [remote]: version }, failures: [{ remote, stage: 'mount', code: 'KHS-ISLAND-007', remoteVersion: version }] },
      });
    expect((await beacon('9.9.9+feedfeedfeed')).statusCode).toBe(204);
    for (let index = 0; index < 9; index++) await beacon(`0.0.${index}+forged`);
    const text = await scrape(shell);
    expect(text).toMatch(new RegExp(`khs_island_browser_failures_total\\{remote="${remote}",version="9.9.9\\+feedfeedfeed",code="KHS-ISLAND-007"[^}]*\\} 1`));
    expect(text).toMatch(new RegExp(`khs_island_page_views_total\\{remote="${remote}",version="9.9.9\\+feedfeedfeed"[^}]*\\} 1`));
    expect(text).toMatch(new RegExp(`khs_island_browser_failures_total\\{remote="${remote}",version="other",code="KHS-ISLAND-007"[^}]*\\} 2`));
  });

  it('time island renders by remote, build and outcome, and count a timeout as a budget overrun', async () => {
    const observe = islandRenderMetrics(() => '1.0.0+live');
    observe('mf-probe', undefined, { ok: true, result: { html: '' }, ms: 12 });
    observe('mf-probe', '1.1.0+canary', { ok: false, stage: 'timeout', ms: 1500 });
    const { body } = await metricsText();
    expect(body).toMatch(/khs_island_render_duration_seconds_count\{remote="mf-probe",version="1.0.0\+live",outcome="rendered"[^}]*\} 1/);
    expect(body).toMatch(/khs_island_budget_overruns_total\{remote="mf-probe",version="1.1.0\+canary"[^}]*\} 1/);
    expect(body).toMatch(/khs_island_server_failures_total\{remote="mf-probe",version="1.1.0\+canary",stage="timeout"[^}]*\} 1/);
  });
});
