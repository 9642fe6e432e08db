import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSearchServer } from '../scripts/build-server.mjs';
import { fixtureArticles } from './support/fixtures.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { http } from './support/target.js';
import { EXIT_WITH_PARENT } from '@khs/stack/supervisor';
import { SERVER_NODE_FLAGS } from '../src/supervisor/supervise-search-server.js';

/** `npm start` runs the compiled build (`scripts/build-server.mjs`): plain node in every process and thread. */
describe('the compiled search service', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'search-dist-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'search-dist-data-'));
  let supervisor: ChildProcess | undefined;
  afterAll(async () => {
    if (supervisor && supervisor.exitCode === null) {
      const exited = new Promise((resolve) => supervisor?.once('exit', resolve));
      supervisor.kill('SIGTERM');
      await exited;
    }
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds, starts supervised without a TypeScript loader, and answers searches from both workers', async () => {
    const files = await buildSearchServer({ outdir });
    expect(files.map((file) => file.slice(outdir.length + 1)).sort()).toEqual(['otlpExportWorker.js', 'search-worker.js', 'start.js', 'supervise.js']);
    // Built again unchanged: the files are left as they are (a running service keeps reading them).
    await buildSearchServer({ outdir });

    const child = spawn(process.execPath, [join(outdir, 'supervise.js')], {
      env: { ...process.env, SEARCH_PORT: '0', SEARCH_DATA_DIR: dataDir, SEARCH_WORKERS: '2', TYPESENSE_API_KEY: 'dist-admin', TYPESENSE_SEARCH_API_KEY: 'dist-search' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    supervisor = child;
    const status = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
      let buffered = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const line = /\{"event":"listening"[^\n]*\}/.exec(buffered);
        if (line) resolve(JSON.parse(line[0]));
      });
      child.once('exit', (code) => reject(new Error(`supervisor exited with ${code}: ${buffered}`)));
    });
    // The server process is plain node on the compiled entry with the supervisor's V8 flags (no tsx
    // loader, no .ts file), and the supervisor's preload that stops it when the supervisor is gone.
    const serverArgs = readFileSync(`/proc/${status.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(serverArgs.slice(1)).toEqual([...SERVER_NODE_FLAGS, '--import', EXIT_WITH_PARENT, join(outdir, 'start.js')]);

    const key = 'dist-admin';
    expect((await http(status.url, 'POST', '/collections', { key, body: fixtureCollectionSchema('articles') })).status).toBe(201);
    const imported = await http(status.url, 'POST', '/collections/articles/documents/import', { key, rawBody: fixtureArticles.map((a) => JSON.stringify(a)).join('\n') });
    expect(imported.text).not.toContain('"success":false');
    // Both workers (the writer and a reader built from it) serve; a search reaches each in turn.
    let stats = (await http(status.url, 'GET', '/stats.json', { key })).json;
    for (let i = 0; i < 100 && stats.workers < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = (await http(status.url, 'GET', '/stats.json', { key })).json;
    }
    expect(stats.workers).toBe(2);
    const searches = Array.from({ length: 6 }, () => ({ collection: 'articles', q: 'resume', query_by: 'title' }));
    const answer = await http(status.url, 'POST', '/multi_search', { key: 'dist-search', body: { searches } });
    expect(answer.status).toBe(200);
    for (const result of answer.json.results) expect(result.hits.map((hit: { document: { id: string } }) => hit.document.id)).toEqual(['a4']);
    expect(stats.workerMemory.map((worker: { role: string }) => worker.role)).toEqual(['writer', 'reader']);
    // Per-thread CPU and memory for the benchmark: each worker has used CPU (loading at least), the
    // HTTP thread's heap and the process's RSS are reported.
    for (const worker of stats.workerMemory) expect(worker.cpuMs).toBeGreaterThan(0);
    expect(stats.serverMemory.httpCpuMs).toBeGreaterThan(0);
    expect(stats.serverMemory.rssMb).toBeGreaterThan(stats.serverMemory.httpHeapTotalMb);
  });
});
