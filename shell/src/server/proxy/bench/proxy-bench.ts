// What the shell's proxy hop costs: the survey results call straight to the survey service
// (baseline) and through the shell's reverse proxy, same service process, same run. Prints figures.
// All connections come from one address, so the proxy measured has its in-flight cap per address
// raised to the connection count; a last run with the default cap shows the cap refusing the rest.
//
//   cd shell && npx tsx src/server/proxy/bench/proxy-bench.ts
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=20 npx tsx src/server/proxy/bench/proxy-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listSurveys } from '@khs/content';
import autocannon from 'autocannon';
import { readShellConfig } from '../../config.js';
import { buildTestApp } from '../../testing/buildTestApp.js';
import { startTeamServiceForTest } from '../../testing/teamServiceUnderTest.js';
import { PROXY_IN_FLIGHT_PER_ADDRESS } from '../../security/edgeLimits.js';
import { teamServiceProxies } from '../teamServiceProxies.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function measure(label: string, url: string): Promise<void> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { accept: 'application/json' } });
  console.log(
    `${label.padEnd(28)} ${result.requests.average.toFixed(0).padStart(6)} req/s  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms  (${result['2xx']} ok, ${result.non2xx} non-2xx, ${result.errors} errors)`,
  );
}

async function main(): Promise<void> {
  const survey = listSurveys()[0]!;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-proxy-bench-'));
  const service = await startTeamServiceForTest('survey', { dataDir });
  const env = { SURVEY_SERVICE_URL: service.urls[0]! };
  const proxyOf = async (inFlightPerAddress?: number) => {
    const { app } = await buildTestApp({ env, features: teamServiceProxies({ config: readShellConfig(env), linkOrigin: () => 'http://localhost', ...(inFlightPerAddress ? { inFlightPerAddress } : {}) }) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    return { app, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  };
  const raised = await proxyOf(CONNECTIONS);
  const capped = await proxyOf();
  try {
    console.log(`Survey results call, ${CONNECTIONS} connections, ${SECONDS} s each, node ${process.version}`);
    const callPath = `/api/survey-results/${survey.formHandle}`;
    await measure('direct to the service', `${service.urls[0]}${callPath}`);
    await measure('through the shell proxy', `${raised.origin}${callPath}`);
    await measure(`proxy, cap ${PROXY_IN_FLIGHT_PER_ADDRESS} per address`, `${capped.origin}${callPath}`);
  } finally {
    await raised.app.close();
    await capped.app.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
