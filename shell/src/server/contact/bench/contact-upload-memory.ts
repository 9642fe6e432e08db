// Contact upload memory benchmark: 30 parallel 5 MB uploads per scenario against a real socket,
// printing the server's resident memory before and at its peak during each burst (the uploads
// come from a child process, so their own buffers are not counted). Refused uploads should cost
// (almost) nothing; accepted ones are the same-run baseline of a full read.
//
//   cd shell && node --expose-gc --import tsx src/server/contact/bench/contact-upload-memory.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildShellApp } from '../../app.js';
import { readShellConfig } from '../../config.js';
import { repositoryContentStore } from '../../content/contentStore.js';
import { openDatabase } from '../../database/index.js';
import { CONTACT_ATTACHMENT_MAX_BYTES } from '../contactLimits.js';
import { contactRoutes } from '../contactRoutes.js';
import { multipartBody, type FormEntry } from '../testing/multipartBody.js';
import { SAMPLE_PDF } from '../testing/sampleFiles.js';

const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 30);
const FILE_BYTES = CONTACT_ATTACHMENT_MAX_BYTES - 64 * 1024; // just under the 5 MB limit
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  return new Promise((resolve) => setTimeout(resolve, 300));
}

const SCENARIOS = [
  'warm-up: no token, no cookie (JIT, sockets)',
  'no token, no cookie (refused from headers)',
  'cookie, wrong token field before the file',
  'cookie, file before any token',
  'BASELINE valid token: read in full, validated, stored',
];

/** The uploading side (child process): builds one scenario's bodies, then sends them on request. */
async function client(base: string): Promise<void> {
  let address = 0;
  const credentials = async () => {
    const response = await fetch(`${base}/actions/blitz/csrf/token`);
    return { token: await response.text(), cookie: response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
  };
  const file = Buffer.concat([SAMPLE_PDF, Buffer.alloc(FILE_BYTES - SAMPLE_PDF.length, 0x20)]);
  const pdf = { fileName: 'big.pdf', type: 'application/pdf', bytes: file };
  const build = async (scenario: number): Promise<{ body: Buffer; contentType: string; cookie?: string }> => {
    if (scenario <= 1) {
      const { payload, contentType } = await multipartBody([['name', 'A'], ['attachment', pdf]]);
      return { body: payload, contentType };
    }
    const { cookie, token } = await credentials();
    const entries: FormEntry[] =
      scenario === 2
        ? [['_csrf', 'forged'], ['attachment', pdf]]
        : scenario === 3
          ? [['attachment', pdf], ['_csrf', token]]
          : [['_csrf', token], ['name', 'Ada'], ['email', 'ada@example.org'], ['message', 'Hello'], ['attachment', pdf], ['password', '']];
    const { payload, contentType } = await multipartBody(entries);
    return { body: payload, contentType, cookie };
  };
  const upload = (body: Buffer, contentType: string, cookie?: string) =>
    new Promise<number>((resolve) => {
      address += 1;
      const request = http.request(`${base}/contact`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'content-length': String(body.length),
          'x-forwarded-for': `10.9.${(address >> 8) & 255}.${address & 255}`,
          ...(cookie ? { cookie } : {}),
        },
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      // A refused upload may see its connection closed while still sending.
      request.on('error', () => resolve(-1));
      request.end(body);
    });
  let prepared: Array<{ body: Buffer; contentType: string; cookie?: string }> = [];
  process.on('message', async (message: { prepare?: number; send?: boolean; exit?: boolean }) => {
    if (message.prepare !== undefined) {
      prepared = await Promise.all(Array.from({ length: PARALLEL }, () => build(message.prepare!)));
      process.send!({ ready: true });
    } else if (message.send) {
      const statuses = await Promise.all(prepared.map(({ body, contentType, cookie }) => upload(body, contentType, cookie)));
      prepared = [];
      process.send!({ statuses });
    } else if (message.exit) {
      process.exit(0);
    }
  });
  process.send!({ started: true });
}

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-memory-'));
  const db = await openDatabase({ dataDir });
  // Behind a simulated proxy on loopback, so each upload has its own client address (the
  // per-address contact limit would otherwise refuse the accepted baseline after 10).
  const config = readShellConfig({ TRUST_PROXY: 'loopback', DATA_DIR: dataDir });
  const { app } = await buildShellApp({
    config,
    content: repositoryContentStore,
    search: { host: '127.0.0.1', port: 8108, protocol: 'http' },
    rateLimitCounters: db.rateLimitCounters,
    features: [({ pageConfig, runtimeUrl }) => ({ plugin: contactRoutes, options: { contactRequests: db.contactRequests, dataDir, pageConfig, runtimeUrl } })],
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const child = fork(import.meta.filename, ['--client', base], { execArgv: ['--import', 'tsx'] });
  await new Promise((resolve) => child.once('message', resolve));

  console.log(`Contact upload memory (server process): ${PARALLEL} parallel uploads of ${mb(FILE_BYTES)} per scenario, node ${process.version}`);
  for (const [index, label] of SCENARIOS.entries()) {
    await ask(child, { prepare: index });
    await settle();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakBuffers = before.arrayBuffers;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 5);
    const started = performance.now();
    const { statuses } = await ask<{ statuses: number[] }>(child, { send: true });
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    await settle();
    const after = process.memoryUsage();
    const counts = Object.entries(statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {}))
      .map(([status, n]) => `${status}x${n}`)
      .join(' ');
    console.log(
      `${label.padEnd(56)} rss before ${mb(before.rss)}, peak ${mb(peakRss)} (+${mb(peakRss - before.rss)}), after ${mb(after.rss)}; ` +
        `buffers peak +${mb(peakBuffers - before.arrayBuffers)}; statuses ${counts}; ${elapsed.toFixed(0)} ms`,
    );
  }
  console.log(`rows stored: ${await db.contactRequests.count()} (the baseline's uploads only)`);
  child.send({ exit: true });
  await app.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const run = process.argv[2] === '--client' ? client(process.argv[3]!) : main();
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
