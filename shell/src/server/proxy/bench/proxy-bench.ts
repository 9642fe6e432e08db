// What the shell's proxy hop costs: one GET call of a team service (BENCH_SERVICE, its name in the
// registry; BENCH_CALL_PATH, the call's path) straight to the service (baseline) and through the
// shell's reverse proxy, same service process, same run. Prints figures. All connections come from
// one address, so the proxy measured has its in-flight cap per address raised to the connection
// count; a last run with the default cap shows the cap refusing the rest.
//
//   cd shell && BENCH_SERVICE=survey BENCH_CALL_PATH=/api/survey-results/leadership-trust npx tsx src/server/proxy/bench/proxy-bench.ts
//   (BENCH_SECONDS=5 BENCH_CONNECTIONS=20 by default)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEAM_SERVICES, type TeamServiceName } from '@khs/stack/registry';
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

/** The service and call measured, from BENCH_SERVICE and BENCH_CALL_PATH; exits naming what is missing. */
function benchTarget(): { target: (typeof TEAM_SERVICES)[number]; callPath: string } {
  const target = TEAM_SERVICES.find((service) => service.name === process.env.BENCH_SERVICE);
  const callPath = process.env.BENCH_CALL_PATH ?? '';
  if (!target || !callPath.startsWith('/api/')) {
    console.error(`Set BENCH_SERVICE (one of ${TEAM_SERVICES.map((service) => service.name).join(', ')}) and BENCH_CALL_PATH (a GET call of that service, /api/…).`);
    process.exit(2);
  }
  return { target, callPath };
}

async function main(): Promise<void> {
  const { target, callPath } = benchTarget();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-proxy-bench-'));
  const service = await startTeamServiceForTest(target.name as TeamServiceName, { dataDir });
  const env = { [target.urlEnv]: service.urls[0]! };
  const proxyOf = async (inFlightPerAddress?: number) => {
    const { app } = await buildTestApp({ env, features: teamServiceProxies({ config: readShellConfig(env), linkOrigin: () => 'http://localhost', ...(inFlightPerAddress ? { inFlightPerAddress } : {}) }) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    return { app, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  };
  const raised = await proxyOf(CONNECTIONS);
  const capped = await proxyOf();
  try {
    console.log(`GET ${callPath} of the ${target.name} service, ${CONNECTIONS} connections, ${SECONDS} s each, node ${process.version}`);
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
