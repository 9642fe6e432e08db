import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  activeTraceIds,
  boundedLabel,
  childLineRelay,
  createLogger,
  DEFAULT_SAMPLE_RATIO,
  metricsText,
  observeFastify,
  registerMetricsRoute,
  routeConsoleToLogger,
  samplingFromEnv,
  startProcessMetrics,
  startTracing,
  tokenCheck,
  withSpan,
} from './index.mjs';
import { startOtlpReceiver } from './otlpReceiver.mjs';

startProcessMetrics('test-part');

describe('tokenCheck', () => {
  it('takes the token as Bearer or as the Basic password, and tells a missing one from a wrong one', () => {
    const check = tokenCheck('s3cret-token');
    expect(check('Bearer s3cret-token')).toBe('ok');
    expect(check(`Basic ${Buffer.from('operator:s3cret-token').toString('base64')}`)).toBe('ok');
    expect(check(undefined)).toBe('missing');
    expect(check('Bearer nope')).toBe('wrong');
  });
});

describe('boundedLabel', () => {
  it('keeps the first values per key and calls every later one "other"', () => {
    const label = boundedLabel(2);
    expect([label('r', 'a'), label('r', 'b'), label('r', 'c'), label('r', 'a'), label('s', 'c')]).toEqual(['a', 'b', 'other', 'a', 'c']);
  });
});

describe('observeFastify and registerMetricsRoute', () => {
  it('count requests by route pattern and status, and serve the metrics only with the token', async () => {
    const app = Fastify();
    observeFastify(app, { part: 'test-part' });
    app.get('/things/:id', async () => ({ ok: true }));
    registerMetricsRoute(app, 'operator-token');
    await app.inject('/things/42');
    await app.inject('/nowhere');
    expect((await app.inject('/metrics')).statusCode).toBe(401);
    expect((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    const scraped = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer operator-token' } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toMatch(/http_requests_total\{route="\/things\/:id",method="GET",status_code="200",part="test-part"\} 1/);
    expect(scraped.body).toMatch(/http_requests_total\{route="unmatched",method="GET",status_code="404",part="test-part"\} 1/);
    expect(scraped.body).toMatch(/nodejs_eventloop_lag_seconds/);
    expect(scraped.body).not.toMatch(/things\/42/);
  });

  it('registers nothing without a token: /metrics is as unknown as any path', async () => {
    const app = Fastify();
    registerMetricsRoute(app, undefined);
    expect((await app.inject('/metrics')).statusCode).toBe(404);
  });
});

describe('samplingFromEnv', () => {
  it("defaults to following the caller's sampled flag, else recording a tenth of the traces", () => {
    expect(samplingFromEnv({})).toEqual({ name: 'parentbased_traceidratio', ratio: DEFAULT_SAMPLE_RATIO });
    expect(DEFAULT_SAMPLE_RATIO).toBe(0.1);
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER_ARG: '1' })).toEqual({ name: 'parentbased_traceidratio', ratio: 1 });
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_on', OTEL_TRACES_SAMPLER_ARG: '0.5' })).toEqual({ name: 'parentbased_always_on' });
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER: ' TraceIdRatio ', OTEL_TRACES_SAMPLER_ARG: '0' })).toEqual({ name: 'traceidratio', ratio: 0 });
  });

  it('reports a sampler or a ratio it does not know and takes the default', () => {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, warn)).toEqual({ name: 'parentbased_traceidratio', ratio: DEFAULT_SAMPLE_RATIO });
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER_ARG: '1.5' }, warn)).toEqual({ name: 'parentbased_traceidratio', ratio: DEFAULT_SAMPLE_RATIO });
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER_ARG: 'half' }, warn)).toEqual({ name: 'parentbased_traceidratio', ratio: DEFAULT_SAMPLE_RATIO });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/OTEL_TRACES_SAMPLER=jaeger_remote/);
    expect(warnings[1]).toMatch(/OTEL_TRACES_SAMPLER_ARG=1\.5/);
  });
});

describe('traces', () => {
  const receiver = startOtlpReceiver();
  afterAll(async () => (await receiver).close());

  it('continue a trusted traceparent and its sampled flag, carry it into outgoing requests, sample the traces started here and export the spans over OTLP', { timeout: 60_000 }, async () => {
    const otlp = await receiver;
    // The default sampler: the trusted caller's flag decides, a tenth of the traces started here.
    const tracing = await startTracing({ part: 'test-part', env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' } });
    expect(tracing.enabled).toBe(true);
    const seen: IncomingHttpHeaders[] = [];
    const downstream = createServer((req, res) => {
      seen.push(req.headers);
      res.end('ok');
    });
    await new Promise<void>((resolve) => downstream.listen(0, '127.0.0.1', resolve));
    const downstreamUrl = `http://127.0.0.1:${(downstream.address() as AddressInfo).port}/`;
    const logIds: unknown[] = [];
    const app = Fastify();
    observeFastify(app, { part: 'test-part', trustTraceparent: (request) => request.headers['x-trusted'] === 'yes' });
    app.get('/page', async (request) => {
      await withSpan('island render', { 'khs.remote': 'mf-x' }, async () => {
        logIds.push(activeTraceIds());
        if (request.headers['x-call'] !== 'yes') return;
        await new Promise<void>((resolve) => httpRequest(downstreamUrl, (res) => res.resume().on('end', resolve)).end());
        await fetch(downstreamUrl).then((res) => res.text());
      });
      return 'page';
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const unsampledTraceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    await app.inject({ url: '/page', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-trusted': 'yes', 'x-call': 'yes' } });
    // The trusted caller did not sample its trace: nothing is recorded, the flag goes on downstream.
    await app.inject({ url: '/page', headers: { traceparent: `00-${unsampledTraceId}-00f067aa0ba902b7-00`, 'x-trusted': 'yes', 'x-call': 'yes' } });
    // Traces started here (an untrusted caller's trace id is not taken): a tenth of them recorded.
    const started = 200;
    for (let index = 0; index < started; index++) await app.inject({ url: '/page', headers: { traceparent: `00-${'1'.repeat(32)}-00f067aa0ba902b7-01` } });
    await tracing.shutdown();
    downstream.close();
    const spans = await otlp.waitFor((all) => all.some((span) => span.traceId === traceId && span.name === 'GET /page'));
    const trusted = spans.filter((span) => span.traceId === traceId);
    expect(trusted.map((span) => span.name).sort()).toEqual(['GET /page', 'island render']);
    expect(trusted.find((span) => span.name === 'GET /page')).toMatchObject({ parentSpanId: '00f067aa0ba902b7', attributes: { 'http.request.method': 'GET', 'http.route': '/page', 'http.response.status_code': 200, 'khs.part': 'test-part' } });
    expect(spans.some((span) => span.traceId === unsampledTraceId)).toBe(false);
    expect(spans.some((span) => span.traceId === '1'.repeat(32))).toBe(false);
    // Both clients (node:http and fetch) sent the island span's context downstream; an unsampled
    // trace's requests carry its trace id with the flag off (no island span: its page span's id).
    const island = trusted.find((span) => span.name === 'island render')!;
    expect(seen.slice(0, 2).map((headers) => headers.traceparent)).toEqual([`00-${traceId}-${island.spanId}-01`, `00-${traceId}-${island.spanId}-01`]);
    expect(seen.slice(2, 4).map((headers) => headers.traceparent)).toEqual([expect.stringMatching(new RegExp(`^00-${unsampledTraceId}-[0-9a-f]{16}-00$`)), expect.stringMatching(new RegExp(`^00-${unsampledTraceId}-[0-9a-f]{16}-00$`))]);
    // Sampled (page + island span each) at the ratio: about 20 of 200; 0 or over 60 is all but impossible (binomial).
    const startedTraces = new Set(spans.filter((span) => span.traceId !== traceId).map((span) => span.traceId));
    expect(spans.filter((span) => span.traceId !== traceId)).toHaveLength(startedTraces.size * 2);
    expect(startedTraces.size).toBeGreaterThan(0);
    expect(startedTraces.size).toBeLessThan(60);
    // Every request's log lines carry its trace id, sampled or not.
    expect(logIds).toHaveLength(started + 2);
    expect(logIds[1]).toMatchObject({ trace_id: unsampledTraceId });
    expect(logIds.every((ids) => typeof (ids as { trace_id?: unknown })?.trace_id === 'string')).toBe(true);
  });
});

describe('createLogger', () => {
  it('writes one JSON line with the part, the level label and the message', () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    createLogger({ part: 'test-part', destination }).warn('something happened');
    expect(JSON.parse(lines[0]!)).toMatchObject({ part: 'test-part', level: 'warn', msg: 'something happened' });
  });
});

describe('routeConsoleToLogger', () => {
  it('turns console lines into JSON lines (an Error into err) and passes a status line through as it is', () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const saved = { log: console.log, error: console.error, warn: console.warn, info: console.info, debug: console.debug };
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stdout.write;
    try {
      routeConsoleToLogger(createLogger({ part: 'test-part', destination }));
      console.log('[x] hello %d', 2);
      console.error('[x] failed:', new Error('boom'));
      console.log(JSON.stringify({ event: 'listening', url: 'http://127.0.0.1:1/' }));
    } finally {
      Object.assign(console, saved);
      process.stdout.write = write;
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({ part: 'test-part', level: 'info', msg: '[x] hello 2' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'error', msg: '[x] failed:', err: { message: 'boom' } });
    expect(written).toEqual(['{"event":"listening","url":"http://127.0.0.1:1/"}\n']);
  });
});

it('metricsText names the registry content type', async () => {
  expect((await metricsText()).contentType).toMatch(/^text\/plain/);
});

describe('startProcessLogs', () => {
  // A child node process: seconds on a loaded machine, not 5.
  it("makes every line of a process JSON: console lines, Node's warnings and an uncaught exception (then exit 1); the listening line stays as it is", { timeout: 60_000 }, async () => {
    const script = `
      import { startProcessLogs } from ${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, 'index.mjs')).href)};
      const first = startProcessLogs('probe');
      if (startProcessLogs('another') !== first) throw new Error('a second call made another logger');
      console.log('[probe] starting');
      process.emitWarning('careful', 'ProbeWarning');
      console.log(JSON.stringify({ event: 'listening', url: 'http://127.0.0.1:1' }));
      setTimeout(() => { throw new Error('boom'); });
    `;
    const { LOG_FORMAT: _ignored, ...env } = process.env;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain('{"event":"listening","url":"http://127.0.0.1:1"}');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // A warning is emitted on the next tick: after the listening line.
    expect(records).toEqual([
      expect.objectContaining({ part: 'probe', level: 'info', msg: '[probe] starting' }),
      { event: 'listening', url: 'http://127.0.0.1:1' },
      expect.objectContaining({ part: 'probe', level: 'warn', msg: 'ProbeWarning: careful' }),
      expect.objectContaining({ part: 'probe', level: 'fatal', msg: 'uncaught exception: boom', err: expect.objectContaining({ message: 'boom', stack: expect.stringContaining('Error: boom') }) }),
    ]);
  });
});

describe('childLineRelay', () => {
  it("prints a child's JSON line as it is and makes any other line a JSON line of the relaying process; with LOG_FORMAT=pretty, every line as it is", () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const logger = createLogger({ part: 'stack', destination });
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stdout.write;
    try {
      const relay = childLineRelay(logger, {});
      relay('{"level":"info","part":"shell","msg":"hello"}');
      relay('[stack] search server (pid 1) at http://127.0.0.1:2');
      relay('{not json');
      childLineRelay(logger, { LOG_FORMAT: 'pretty' })('[stack] for people');
    } finally {
      process.stdout.write = write;
    }
    expect(written).toEqual(['{"level":"info","part":"shell","msg":"hello"}\n', '[stack] for people\n']);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ part: 'stack', level: 'info', msg: '[stack] search server (pid 1) at http://127.0.0.1:2' }),
      expect.objectContaining({ part: 'stack', msg: '{not json' }),
    ]);
  });
});
