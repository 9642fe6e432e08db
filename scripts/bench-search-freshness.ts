// Search freshness benchmark (issue 36, prints figures, asserts nothing): throughput of the search
// page with its caches keyed on the index version, next to a build of mf-search from before
// (BENCH_OLD_DIST: a copy of an older `mf-search/dist`), in the same run on the same stack. The
// stack serves the current build; the old one is deployed to the same origin, measured, and
// rolled back, then the current build is measured once more (A, B, A: drift shows).
//
//   npx tsx scripts/bench-search-freshness.ts                          # current build only
//   BENCH_OLD_DIST=/tmp/old-mf-search-dist npx tsx scripts/bench-search-freshness.ts
//
// Two loads per build: `/search?q=team` as a new visitor asks it (the page is rendered; the
// island's render and answers come from their caches), and as a browser or proxy revalidates it
// (`If-None-Match` with the page's ETag: a 304 without rendering).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { deploy, rollback } from '@khs/deploy';
import { startStack } from '../e2e/harness/stack.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const OLD_DIST = process.env.BENCH_OLD_DIST;

const work = mkdtempSync(path.join(os.tmpdir(), 'khs-bench-freshness-'));
const origins = path.join(work, 'origins');
const stack = await startStack({ deployedOrigins: origins });
const target = path.join(origins, 'mf-search');
const searchUrl = new URL('/search?q=team', stack.url).href;
const liveVersion = () => JSON.parse(readFileSync(path.join(target, 'mf-manifest.json'), 'utf8')).metaData.buildVersion as string;

/** Waits until the shell renders the search list with `version` (its script URLs name it) and whole (cacheable). */
async function untilRenderedWith(version: string): Promise<string> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const response = await fetch(searchUrl);
    const html = await response.text();
    const etag = response.headers.get('etag');
    if (html.includes(`/versions/${version}/`) && etag && html.includes('khs-search-teaser')) return etag;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the shell did not render mf-search ${version} within 60 s`);
}

async function load(label: string, headers: Record<string, string> = {}) {
  const result = (await autocannon({ url: searchUrl, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1, headers })) as autocannon.Result;
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => `${code}×${(stat as { count: number }).count}`).join(' ');
  return { label, 'req/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99, statuses };
}

async function measure(build: string) {
  const etag = await untilRenderedWith(liveVersion());
  return [await load(`${build}: /search?q=team`), await load(`${build}: revalidated (304)`, { 'if-none-match': etag })];
}

try {
  const rows = [...(await measure('current'))];
  if (OLD_DIST) {
    await deploy({ from: OLD_DIST, target });
    rows.push(...(await measure('before (BENCH_OLD_DIST)')));
    await rollback({ target });
    rows.push(...(await measure('current, again')));
  }
  console.log(`\n/search?q=team, ${CONNECTIONS} connections, ${DURATION_S} s each (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}):`);
  console.table(rows);
} finally {
  await stack.close();
  rmSync(work, { recursive: true, force: true });
}
