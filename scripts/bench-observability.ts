// Observability overhead benchmark (prints figures, asserts nothing): the shell's CPU time per
// article request with metrics off (KHS_METRICS=off), metrics on (the default), and tracing on
// (metrics on and OTLP export to a local receiver), over interleaved repeats.
//
// One stack serves the remotes, the team services and the search server; the benchmark starts
// three more shells with the stack shell's own environment, one per variant, and in each round
// sends every variant the same batch of article requests (in a shuffled order), reading each shell
// process's CPU time (user + system, /proc/<pid>/stat) before and after its batch. Linux only.
//
//   npx tsx scripts/bench-observability.ts   (BENCH_ROUNDS=8, BENCH_REQUESTS=150, BENCH_CONCURRENCY=4)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { listArticles } from '@khs/content';
import { startOtlpReceiver } from '@khs/observability/otlp-receiver';
import { REPO_ROOT, startStack } from '../e2e/harness/stack.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 150);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

type Variant = 'metrics off' | 'metrics on' | 'tracing on';

/** CPU time a process has used, milliseconds (utime + stime). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

async function startShell(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const loader = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, 'src/server/main.ts'], { cwd: path.join(REPO_ROOT, 'shell'), env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a shell exited (${code}) before it listened`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"event":"listening"')) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return { child, url };
}

async function requestBatch(urls: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const response = await fetch(urls[next++]!);
      if (response.status !== 200) throw new Error(`${response.url} answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const receiver = await startOtlpReceiver();
/** The stack, started again when a part missed its start deadline (a busy machine). */
async function startStackPatiently(attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStack();
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.log(`the stack did not start (${String(error).split('\n')[0]}); again (${attempt + 1}/${attempts})`);
    }
  }
}
const stack = await startStackPatiently();
const base = environOf(stack.shellPid());
const dataDirs: string[] = [];
const shells = new Map<Variant, { child: ChildProcess; url: string }>();
try {
  const variants: Record<Variant, Record<string, string>> = {
    'metrics off': { KHS_METRICS: 'off' },
    'metrics on': {},
    'tracing on': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
  };
  for (const [name, extra] of Object.entries(variants) as Array<[Variant, Record<string, string>]>) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'khs-bench-observability-'));
    dataDirs.push(dataDir);
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _none, KHS_METRICS: _default, ...env } = base;
    shells.set(name, await startShell({ ...env, ...extra, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: '' }));
  }
  const articles = listArticles().slice(0, 30);
  const paths = Array.from({ length: REQUESTS }, (_, index) => `/articles/${articles[index % articles.length]!.id}`);
  // Warm-up: every shell has loaded the remotes and rendered each article once.
  for (const { url } of shells.values()) await requestBatch(articles.map((article) => new URL(`/articles/${article.id}`, url).href));
  const perRequest = new Map<Variant, number[]>([...shells.keys()].map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...shells.keys()].sort(() => Math.random() - 0.5);
    for (const name of order) {
      const shell = shells.get(name)!;
      const before = cpuMs(shell.child.pid!);
      await requestBatch(paths.map((pathname) => new URL(pathname, shell.url).href));
      perRequest.get(name)!.push((cpuMs(shell.child.pid!) - before) / REQUESTS);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const baseline = median(perRequest.get('metrics off')!);
  console.log(`\nShell CPU time per article request (${ROUNDS} interleaved rounds of ${REQUESTS} requests, ${CONCURRENCY} at a time; median of the rounds):`);
  for (const [name, values] of perRequest) {
    const value = median(values);
    const overhead = name === 'metrics off' ? '' : `  ${(((value - baseline) / baseline) * 100).toFixed(1)} % over metrics off`;
    console.log(`  ${name.padEnd(12)} ${value.toFixed(3)} ms${overhead}   (rounds: ${values.map((v) => v.toFixed(2)).join(' ')})`);
  }
  console.log(`  spans received with tracing on: ${receiver.spans.length}`);
} finally {
  for (const { child } of shells.values()) child.kill('SIGTERM');
  await stack.close();
  await receiver.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
