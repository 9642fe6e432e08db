/**
 * Standalone embedded search server (one process: an HTTP thread and a pool
 * of search worker threads). Environment: see `serverOptionsFromEnv` and the
 * package README. Prints one JSON line `{"event":"listening","url","pid"}`
 * once it serves (supervisors and test harnesses read it), then human lines.
 */
import { startProcessLogs, startProcessMetrics, startTracing } from '@khs/observability';
import { startSearchServer } from '../http/server.js';
import { checkKeysForInterface, serverOptionsFromEnv } from './env-config.js';

// JSON log lines (part, level, message, trace id), metrics, and traces when an OTLP endpoint is set.
startProcessLogs('search');
startProcessMetrics('search');
const tracing = await startTracing({ part: 'search' });

let options: ReturnType<typeof serverOptionsFromEnv>;
let warnings: string[];
try {
  options = serverOptionsFromEnv();
  warnings = checkKeysForInterface(options);
} catch (error) {
  console.error(`[search] ${(error as Error).message}`);
  process.exit(1);
}
for (const warning of warnings) console.warn(`[search] ${warning}`);
const server = await startSearchServer({ ...options, log: (msg) => console.log(`[search] ${msg}`) });
console.log(JSON.stringify({ event: 'listening', url: server.url, port: server.port, pid: process.pid }));

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => tracing.shutdown().finally(() => process.exit(0)),
    (error: unknown) => {
      console.error(`[search] error while closing: ${(error as Error)?.message ?? String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// A supervisor killed outright (SIGKILL) cannot pass its stop on: the supervisor's preload
// (`@khs/stack/supervisor`, EXIT_WITH_PARENT) stops this process when the supervisor's IPC channel
// closes, instead of leaving it holding its port and data folder as an orphan.
