import type { FastifyInstance } from 'fastify';
import { startProcessLogs, startProcessMetrics, startTracing } from '@khs/observability';

/** What `runService` needs. */
export interface RunServiceOptions {
  name: string;
  app: FastifyInstance;
  host: string;
  port: number;
  /** Runs after the app stopped taking requests (close the database here). */
  onClose?: () => Promise<void>;
}

/**
 * Listens, prints one machine-readable line (`{"event":"listening","service","url","port","pid"}`,
 * read by the stack starter) and a human one, and shuts down gracefully on SIGTERM/SIGINT: stops
 * accepting, lets requests in flight finish, then runs `onClose` and exits 0.
 */
export async function runService({ name, app, host, port, onClose }: RunServiceOptions): Promise<{ url: string; port: number }> {
  // The process's lines as JSON (part, level, message, trace id; already so when the service's
  // main called startProcessLogs first), its metrics, and traces when an OTLP endpoint is set
  // (OTEL_EXPORTER_OTLP_ENDPOINT).
  startProcessLogs(name);
  startProcessMetrics(name);
  const tracing = await startTracing({ part: name });
  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host}:${actualPort}`;
  console.log(JSON.stringify({ event: 'listening', service: name, url, port: actualPort, pid: process.pid }));
  console.log(`[${name}] service listening at ${url}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[${name}] ${signal}: shutting down`);
    try {
      await app.close();
      await onClose?.();
      await tracing.shutdown();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return { url, port: actualPort };
}
