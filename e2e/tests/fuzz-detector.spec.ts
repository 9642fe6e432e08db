import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { FuzzCase } from '../fuzz/corpus.js';
import type { FuzzPart } from '../fuzz/routes.js';
import { isFailure, outcomeLabel, runCorpus } from '../fuzz/runCorpus.js';

// The fuzz test (fuzz.spec.ts) passes only if its runner sees what goes wrong: this checks the
// runner against a server that answers 500, answers nothing, answers in pieces, and a process that
// dies on a request.

const request = (path: string, method = 'GET') => Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
const fuzzCase = (part: FuzzPart, path: string, method = 'GET'): FuzzCase => ({ name: `${part} ${method} ${path}`, part, family: 'detector', pieces: [request(path, method)], ...(method === 'HEAD' ? { head: true } : {}) });

test('the fuzz runner counts a 5xx, a hang and a crash as failures, and complete answers as answers', async () => {
  const server = http.createServer((req, res) => {
    if (req.url === '/error') return void res.writeHead(500).end('boom');
    if (req.url === '/silent') return; // never answers
    if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
      setTimeout(() => res.end('b'), 50);
      return;
    }
    if (req.url === '/headers-only') {
      res.writeHead(200, { 'content-length': '10' });
      res.write('12345'); // half of what it announced, then nothing
      return;
    }
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-length': '2' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A process that exits on its first request, as a crashing origin would.
  const dying = spawn(process.execPath, ['-e', "require('http').createServer(() => process.exit(3)).listen(0, '127.0.0.1', function () { console.log('port=' + this.address().port) })"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const dyingPort = await new Promise<number>((resolve) => {
    let output = '';
    dying.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /port=(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
  try {
    const cases = [
      fuzzCase('shell', '/ok'),
      fuzzCase('shell', '/ok', 'HEAD'),
      fuzzCase('shell', '/missing'),
      fuzzCase('shell', '/chunked'),
      fuzzCase('shell', '/error'),
      fuzzCase('shell', '/silent'),
      fuzzCase('shell', '/headers-only'),
      fuzzCase('origin:dying', '/anything'),
    ];
    const run = await runCorpus(cases, {
      addressOf: (part) => ({ host: '127.0.0.1', port: part === 'shell' ? (server.address() as AddressInfo).port : dyingPort }),
      concurrency: 4,
      timeoutMs: 1_500,
      watched: {
        parts: ['origin:dying'],
        crashed: async () => {
          await new Promise((resolve) => (dying.exitCode !== null ? resolve(undefined) : dying.once('exit', resolve)));
          return `exited with ${dying.exitCode}`;
        },
      },
    });
    expect(run.results.map(({ fuzzCase: { name }, outcome }) => `${name}: ${outcomeLabel(outcome)}${isFailure(outcome) ? ' (failure)' : ''}`)).toEqual([
      'shell GET /ok: 200',
      'shell HEAD /ok: 200',
      'shell GET /missing: 404',
      'shell GET /chunked: 200',
      'shell GET /error: 500 (failure)',
      'shell GET /silent: hang (failure)',
      'shell GET /headers-only: hang (failure)',
      'origin:dying GET /anything: crash (failure)',
    ]);
    expect(run.byStatus).toEqual({ '200': 3, '404': 1, '500': 1, hang: 2, crash: 1 });
  } finally {
    server.closeAllConnections();
    server.close();
    dying.kill();
  }
});
