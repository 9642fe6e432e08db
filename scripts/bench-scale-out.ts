// Benchmark (issue 27): what a caching nginx in front of two shells buys. For the article page and
// a search page, in one run: through nginx with its cache warm, through nginx with no cache (every
// request rendered by one of the two shells), and straight to one shell. Requests per second and
// latency (p50/p99); autocannon, bounded in connections and time, loopback only.
//
//   npx tsx scripts/bench-scale-out.ts [--seconds 8] [--connections 16]
//
// Needs `npm run build` and nginx (`apt-get install -y nginx`); PostgreSQL as in the tests
// (TEST_DATABASE_URL, else a throwaway cluster from tooling/local-postgres).
import autocannon from 'autocannon';
import { listArticles } from '@khs/content';
import { scaleOutUnavailable, startScaleOut } from '../e2e/harness/scaleOut.js';

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const DURATION_S = argument('seconds', 8);
const CONNECTIONS = argument('connections', 16);
/** Browser-like: the shells compress, nginx keeps one copy per encoding. */
const HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

const unavailable = scaleOutUnavailable();
if (unavailable) {
  console.error(unavailable);
  process.exit(2);
}

const site = await startScaleOut();
try {
  const coldProxy = await site.startProxy({ cache: false });
  const pages = [
    { name: 'article page', path: listArticles()[0]!.url },
    { name: '/search?q=leadership', path: '/search?q=leadership' },
  ];
  const variants = [
    { name: 'nginx, cache warm', origin: site.proxyUrl },
    { name: 'nginx, no cache', origin: coldProxy },
    { name: 'one shell, direct', origin: site.shells[0] },
  ];
  const measure = (url: string, duration: number) =>
    autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, headers: HEADERS }) as Promise<autocannon.Result>;

  console.log(`\nScale-out: 2 shells on one PostgreSQL; ${CONNECTIONS} connections, ${DURATION_S} s per row (after a 2 s warm-up that is discarded)`);
  console.log('page'.padEnd(22), 'variant'.padEnd(20), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'non-2xx'.padStart(8), 'errors'.padStart(7));
  for (const page of pages) {
    const rows: { name: string; rps: number }[] = [];
    for (const variant of variants) {
      const url = new URL(page.path, variant.origin).href;
      await measure(url, 2);
      const result = await measure(url, DURATION_S);
      rows.push({ name: variant.name, rps: result.requests.average });
      console.log(
        page.name.padEnd(22),
        variant.name.padEnd(20),
        result.requests.average.toFixed(0).padStart(9),
        String(result.latency.p50).padStart(8),
        String(result.latency.p99).padStart(8),
        String(result.non2xx).padStart(8),
        String(result.errors + result.timeouts).padStart(7),
      );
    }
    const direct = rows.at(-1)!.rps;
    console.log(`${''.padEnd(22)} req/s against one shell direct: ${rows.map((row) => `${row.name} ${(row.rps / direct).toFixed(2)}×`).join(', ')}`);
  }
} finally {
  await site.close();
}
