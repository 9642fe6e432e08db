import { spawn } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { TracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { OtlpWorkerExporter } from './otlpWorkerExporter.mjs';
import { startOtlpReceiver } from './otlpReceiver.mjs';

/** Ended spans named `names`, as a span processor hands them to an exporter. */
function endedSpans(...names: string[]): ReadableSpan[] {
  const ended: ReadableSpan[] = [];
  const keep: SpanProcessor = { onStart: () => {}, onEnd: (span) => void ended.push(span), forceFlush: async () => {}, shutdown: async () => {} };
  const tracer = new TracerProvider({ spanProcessors: [keep] }).getTracer('test');
  for (const name of names) tracer.startSpan(name).end();
  return ended;
}

const exported = (exporter: OtlpWorkerExporter, spans: ReadableSpan[]) => new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));

describe('OtlpWorkerExporter', () => {
  const receiver = startOtlpReceiver();
  afterAll(async () => (await receiver).close());

  it("sends each batch as OTLP JSON from a worker thread: this thread's node:http client code is never run", { timeout: 60_000 }, async () => {
    const otlp = await receiver;
    const clientRequestsHere: unknown[] = [];
    const count = (message: unknown) => clientRequestsHere.push(message);
    diagnosticsChannel.subscribe('http.client.request.created', count);
    const exporter = new OtlpWorkerExporter({ url: `${otlp.endpoint}/v1/traces` });
    try {
      expect(await exported(exporter, endedSpans('page', 'island render'))).toEqual({ code: ExportResultCode.SUCCESS });
      expect(await exported(exporter, endedSpans('another page'))).toEqual({ code: ExportResultCode.SUCCESS });
    } finally {
      diagnosticsChannel.unsubscribe('http.client.request.created', count);
      await exporter.shutdown();
    }
    expect(otlp.spans.map((span) => span.name)).toEqual(expect.arrayContaining(['page', 'island render', 'another page']));
    expect(clientRequestsHere).toEqual([]);
  });

  it('reports a batch the receiver refuses as failed, waits for a pending batch on shutdown and sends nothing after', { timeout: 60_000 }, async () => {
    const bodies: string[] = [];
    const refusing = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"bad batch"}');
      });
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const exporter = new OtlpWorkerExporter({ url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1/traces` });
    try {
      const refused = await exported(exporter, endedSpans('refused'));
      expect(refused.code).toBe(ExportResultCode.FAILED);
      expect(refused.error?.message).toMatch(/Bad Request|400/);
      // Handed over, then shut down at once: the batch is answered before shutdown resolves.
      let pending: ExportResult | undefined;
      exporter.export(endedSpans('pending'), (result: ExportResult) => (pending = result));
      await exporter.shutdown();
      expect(pending?.code).toBe(ExportResultCode.FAILED);
      expect(await exported(exporter, endedSpans('too late'))).toMatchObject({ code: ExportResultCode.FAILED, error: expect.objectContaining({ message: 'The span exporter is shut down' }) });
      expect(bodies).toHaveLength(2);
      expect(JSON.parse(bodies[1]!).resourceSpans[0].scopeSpans[0].spans[0].name).toBe('pending');
    } finally {
      refusing.close();
    }
  });

  it('does not keep a process alive once its batches are sent', { timeout: 60_000 }, async () => {
    const otlp = await receiver;
    const script = `
      import { TracerProvider } from '@opentelemetry/sdk-trace';
      import { OtlpWorkerExporter } from ${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, 'otlpWorkerExporter.mjs')).href)};
      const ended = [];
      const tracer = new TracerProvider({ spanProcessors: [{ onStart() {}, onEnd: (span) => ended.push(span), forceFlush: async () => {}, shutdown: async () => {} }] }).getTracer('child');
      tracer.startSpan('from a child process').end();
      // No shutdown, nothing else to do: the thread holds the process until the batch is answered, then not.
      new OtlpWorkerExporter({ url: ${JSON.stringify(`${otlp.endpoint}/v1/traces`)} }).export(ended, (result) => console.log(JSON.stringify(result)));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(JSON.stringify({ code: ExportResultCode.SUCCESS }));
    expect(otlp.spans.map((span) => span.name)).toContain('from a child process');
  });
});
