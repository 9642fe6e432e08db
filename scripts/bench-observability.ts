// Observability overhead benchmark (prints figures, asserts nothing): the shell's CPU time per
// article request with metrics off (KHS_METRICS=off), metrics on (the default), and tracing on
// (metrics on and OTLP export to a local receiver), over interleaved repeats.
//
// It starts what an article page needs, one part after the other (no start deadline, so a busy
// machine only makes it slower): each remote's static origin, the search server, and three
// shells, one per variant, alike but for the variant. In each round every variant gets the same
// batch of article requests, in a shuffled order, and each shell process's CPU time (user +
// system, /proc/<pid>/stat) is read before and after its batch. Linux only.
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
import { REMOTES } from '@khs/stack/registry';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 150);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const SEARCH_KEY = 'bench-search-key-0123456789';

type Variant = 'metrics off' | 'metrics on' | 'tracing on';

/** CPU time a process has used, milliseconds (utime + stime). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const children: ChildProcess[] = [];
/** Starts a node process and resolves with the URL of its `{"event":"listening"}` line. */
function start(args: string[], env: Record<string, string>, cwd = ROOT): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, LOG_LEVEL: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it listened`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"event":"listening"')) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
  });
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
const work = mkdtempSync(path.join(tmpdir(), 'khs-bench-observability-'));
const shells = new Map<Variant, { child: ChildProcess; url: string }>();
try {
  const manifests: Record<string, string> = {};
  for (const remote of REMOTES) {
    const origin = await start([path.join(ROOT, 'tooling/static-server/cli.mjs'), path.join(ROOT, remote.name, 'dist'), '0'], {});
    manifests[remote.manifestEnv] = `${origin.url}/mf-manifest.json`;
  }
  const search = new URL((await start([path.join(ROOT, 'search-engine/dist/start.js')], { SEARCH_PORT: '0', SEARCH_DATA_DIR: path.join(work, 'search'), TYPESENSE_SEARCH_API_KEY: SEARCH_KEY })).url);
  const variants: Record<Variant, Record<string, string>> = {
    'metrics off': { KHS_METRICS: 'off' },
    'metrics on': {},
    'tracing on': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
  };
  const loader = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  for (const [name, extra] of Object.entries(variants) as Array<[Variant, Record<string, string>]>) {
    const env = { ...manifests, PORT: '0', DATA_DIR: path.join(work, name.replace(' ', '-')), TYPESENSE_HOST: search.hostname, TYPESENSE_PORT: search.port, TYPESENSE_PROTOCOL: 'http', TYPESENSE_SEARCH_API_KEY: SEARCH_KEY, ...extra };
    shells.set(name, await start(['--import', loader, 'src/server/main.ts'], env, path.join(ROOT, 'shell')));
  }
  const articles = listArticles().slice(0, 30);
  const paths = Array.from({ length: REQUESTS }, (_, index) => `/articles/${articles[index % articles.length]!.id}`);
  // Warm-up: every shell has loaded the remotes and rendered each article a few times.
  for (const { url } of shells.values()) await requestBatch([...paths, ...paths].slice(0, 2 * articles.length).map((pathname) => new URL(pathname, url).href));
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
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const baseline = median(perRequest.get('metrics off')!);
  console.log(`\nShell CPU time per article request (${ROUNDS} interleaved rounds of ${REQUESTS} requests, ${CONCURRENCY} at a time; median of the rounds, mean beside):`);
  for (const [name, values] of perRequest) {
    const value = median(values);
    const overhead = name === 'metrics off' ? '' : `  ${(((value - baseline) / baseline) * 100).toFixed(1)} % over metrics off`;
    console.log(`  ${name.padEnd(12)} ${value.toFixed(3)} ms (mean ${mean(values).toFixed(3)})${overhead}   rounds: ${values.map((v) => v.toFixed(2)).join(' ')}`);
  }
  console.log(`  spans received with tracing on: ${receiver.spans.length}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await receiver.close();
  rmSync(work, { recursive: true, force: true });
}
