// Contact service upload memory benchmark: 30 parallel 5 MB uploads per scenario against the
// service on a real socket, printing its resident memory before and at its peak during each burst
// (the uploads come from a child process, so their own buffers are not counted). Uploads the
// service refuses from their headers (not from the edge, too large) should cost (almost) nothing;
// accepted ones are the same-run baseline of a full read. (Refusals for a missing or forged CSRF
// token happen at the shell's edge, before anything reaches the service.)
//
//   cd contact && node --expose-gc --import tsx server/bench/contact-upload-memory.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EDGE_KEY_HEADER, FORM_TOKEN_HEADER, edgeKeyOf } from '@khs/team-service';
import { buildContactService } from '../src/buildContactService.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_BODY_MAX_BYTES } from '../src/contactLimits.js';
import { openContactStorage } from '../src/storage/openContactStorage.js';
import { multipartBody, type FormEntry } from '@khs/team-service/testing';
import { SAMPLE_PDF } from '../src/testing/sampleFiles.js';

const EDGE_KEY = edgeKeyOf('khs-contact-bench-cookie-secret-0123456789');

const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 30);
const FILE_BYTES = CONTACT_ATTACHMENT_MAX_BYTES - 64 * 1024; // just under the 5 MB limit
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  return new Promise((resolve) => setTimeout(resolve, 300));
}

const SCENARIOS = [
  'warm-up: not from the edge (JIT, sockets)',
  'not from the edge (refused from headers)',
  'declared larger than the limit (refused from headers)',
  'BASELINE from the edge: read in full, validated, stored',
];

/** The uploading side (child process): builds one scenario's bodies, then sends them on request. */
async function client(base: string): Promise<void> {
  let address = 0;
  const file = Buffer.concat([SAMPLE_PDF, Buffer.alloc(FILE_BYTES - SAMPLE_PDF.length, 0x20)]);
  const pdf = { fileName: 'big.pdf', type: 'application/pdf', bytes: file };
  const build = async (scenario: number): Promise<{ body: Buffer; contentType: string; headers: Record<string, string> }> => {
    const entries: FormEntry[] = [['_csrf', 'edge-checked'], ['name', 'Ada'], ['email', 'ada@example.org'], ['message', 'Hello'], ['attachment', pdf], ['password', '']];
    const { payload, contentType } = await multipartBody(entries);
    const edge = { [EDGE_KEY_HEADER]: EDGE_KEY, [FORM_TOKEN_HEADER]: 'edge-made-token-0123456789' };
    if (scenario <= 1) return { body: payload, contentType, headers: {} };
    // Its own connection: the body it declares is never sent, so the socket cannot carry another request.
    if (scenario === 2) return { body: payload, contentType, headers: { ...edge, 'content-length': String(CONTACT_BODY_MAX_BYTES + 1), connection: 'close' } };
    return { body: payload, contentType, headers: edge };
  };
  const upload = (body: Buffer, contentType: string, headers: Record<string, string>) =>
    new Promise<number>((resolve) => {
      address += 1;
      const request = http.request(`${base}/contact`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'content-length': String(body.length),
          'x-forwarded-for': `10.9.${(address >> 8) & 255}.${address & 255}`,
          ...headers,
        },
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      // A refused upload may see its connection closed while still sending.
      request.on('error', () => resolve(-1));
      // A body longer than its (false) declared length is cut by the client; the service refused it by then.
      request.end(headers['content-length'] ? body.subarray(0, 1024) : body);
    });
  let prepared: Array<{ body: Buffer; contentType: string; headers: Record<string, string> }> = [];
  process.on('message', async (message: { prepare?: number; send?: boolean; exit?: boolean }) => {
    if (message.prepare !== undefined) {
      prepared = await Promise.all(Array.from({ length: PARALLEL }, () => build(message.prepare!)));
      process.send!({ ready: true });
    } else if (message.send) {
      const statuses = await Promise.all(prepared.map(({ body, contentType, headers }) => upload(body, contentType, headers)));
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
  const storage = await openContactStorage({ dataDir });
  const app = await buildContactService({ storage, dataDir, edgeKey: EDGE_KEY });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const child = fork(import.meta.filename, ['--client', base], { execArgv: ['--import', 'tsx'] });
  await new Promise((resolve) => child.once('message', resolve));

  console.log(`Contact upload memory (contact service process): ${PARALLEL} parallel uploads of ${mb(FILE_BYTES)} per scenario, node ${process.version}`);
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
  console.log(`rows stored: ${await storage.contactRequests.count()} (the baseline's uploads only)`);
  child.send({ exit: true });
  await app.close();
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const run = process.argv[2] === '--client' ? client(process.argv[3]!) : main();
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
