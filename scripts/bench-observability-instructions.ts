// Observability overhead in instructions (prints figures, asserts nothing): the shell's machine
// instructions per article request, counted by Valgrind's callgrind, with metrics off, metrics on
// and tracing at several samplings: where a variant's work goes, function by function.
//
// It starts what an article page needs natively (each remote's static origin, the search server),
// then, per generation, one shell per variant under `valgrind --tool=callgrind --instr-atstart=no`
// (nothing counted while it starts and warms up), warms it up, switches counting on
// (`callgrind_control -i on`), sends the measured requests, dumps the counts and stops the shell.
// Counts are by thread (`--separate-threads=yes`): the main thread, and all threads.
//
// Not a figure for small differences: two shells of one variant differ by up to about 6 % on the
// main thread. Under Valgrind a request takes about 30 times as long, so the work timers do by the
// clock (manifest polls, the event-loop monitor, the span exporter) weighs about 30 times as much
// per request and moves with the machine's load; and what the JIT has compiled when counting
// starts differs from process to process. CPU time over many generations of fresh shells is
// scripts/bench-observability.ts. What this one gives is the attribution: with BENCH_KEEP the dumps
// stay for `callgrind_annotate` (the main thread's file is `cg-<variant>.1-01`), and with
// BENCH_NODE_FLAGS="--perf-basic-prof --interpreted-frames-native-stack" the JIT code's addresses
// (`???:0x…`) are named in `/tmp/perf-<pid>.map` (the pid is in the dump's header).
// (How the exporter's deoptimizations were found: deploy/README.md, "Observability overhead".)
//
//   npx tsx scripts/bench-observability-instructions.ts
//     BENCH_GENERATIONS=2, BENCH_REQUESTS=120, BENCH_WARMUP=300,
//     BENCH_VARIANTS="metrics off;tracing, none recorded" (default: all), BENCH_KEEP=1, BENCH_NODE_FLAGS="…"
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { listArticles } from '@khs/content';
import { startOtlpReceiver } from '@khs/observability/otlp-receiver';
import { REMOTES } from '@khs/stack/registry';

const ROOT = path.resolve(import.meta.dirname, '..');
const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 2);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 120);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const SEARCH_KEY = 'bench-search-key-0123456789';

const receiver = await startOtlpReceiver();
const VARIANT_ENV: Record<string, Record<string, string>> = {
  'metrics off': { KHS_METRICS: 'off' },
  'metrics on': {},
  'tracing, none recorded': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER: 'always_off' },
  'tracing, 1 in 100': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER_ARG: '0.01' },
  'tracing, default (1 in 10)': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
  'tracing, every trace': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
};
const VARIANTS = process.env.BENCH_VARIANTS ? process.env.BENCH_VARIANTS.split(';').map((name) => name.trim()) : Object.keys(VARIANT_ENV);
for (const variant of VARIANTS) if (!VARIANT_ENV[variant]) throw new Error(`unknown variant "${variant}": one of ${Object.keys(VARIANT_ENV).join(', ')}`);

/** Starts a process and resolves once it prints its `{"event":"listening"}` line. */
function start(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd, env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: '', LOG_FORMAT: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  readline.createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(-20).join('\n')}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"event":"listening"')) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
  });
}

/** Sends `paths` to `origin`, two at a time. */
async function send(paths: string[], origin: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const response = await fetch(new URL(paths[next++]!, origin));
      if (response.status !== 200) throw new Error(`${response.url} answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all([worker(), worker()]);
}

/** Instructions (Ir) in the callgrind dumps of `prefix`: { main thread, all threads }. */
function countsOf(directory: string, prefix: string): { main: number; all: number } {
  let main = 0;
  let all = 0;
  for (const file of readdirSync(directory).filter((name) => name.startsWith(prefix))) {
    const text = readFileSync(path.join(directory, file), 'utf8');
    const total = Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1] ?? 0);
    all += total;
    // The main thread is thread 1 (`--separate-threads=yes` names each file `…-<thread>`).
    if (/^thread: 1$/m.test(text)) main += total;
  }
  return { main, all };
}

const work = mkdtempSync(path.join(tmpdir(), 'khs-bench-instructions-'));
const natives: ChildProcess[] = [];
try {
  const manifests: Record<string, string> = {};
  for (const remote of REMOTES) {
    const origin = await start(process.execPath, [path.join(ROOT, 'tooling/static-server/cli.mjs'), path.join(ROOT, remote.name, 'dist'), '0'], {});
    natives.push(origin.child);
    manifests[remote.manifestEnv] = `${origin.url}/mf-manifest.json`;
  }
  const searchServer = await start(process.execPath, [path.join(ROOT, 'search-engine/dist/start.js')], { SEARCH_PORT: '0', SEARCH_DATA_DIR: path.join(work, 'search'), TYPESENSE_SEARCH_API_KEY: SEARCH_KEY });
  natives.push(searchServer.child);
  const search = new URL(searchServer.url);
  const loader = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const articles = listArticles().slice(0, 30);
  const pathsOf = (count: number) => Array.from({ length: count }, (_, index) => `/articles/${articles[index % articles.length]!.id}`);
  const perRequest = new Map<string, { main: number[]; all: number[] }>(VARIANTS.map((variant) => [variant, { main: [], all: [] }]));
  for (let generation = 0; generation < GENERATIONS; generation++) {
    // One variant at a time: every shell is started, warmed up, counted and stopped alike.
    for (const variant of [...VARIANTS].sort(() => Math.random() - 0.5)) {
      const name = `g${generation}-${variant.replace(/\W+/g, '-')}`;
      const env = { ...manifests, PORT: '0', DATA_DIR: path.join(work, name), TYPESENSE_HOST: search.hostname, TYPESENSE_PORT: search.port, TYPESENSE_PROTOCOL: 'http', TYPESENSE_SEARCH_API_KEY: SEARCH_KEY, ...VARIANT_ENV[variant] };
      const valgrind = ['--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${path.join(work, `cg-${name}`)}`];
      const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
      const shell = await start('valgrind', [...valgrind, process.execPath, ...nodeFlags, '--import', loader, 'src/server/main.ts'], env, path.join(ROOT, 'shell'));
      await send(pathsOf(WARMUP), shell.url);
      execFileSync('callgrind_control', ['-i', 'on', String(shell.child.pid)], { stdio: 'ignore' });
      await send(pathsOf(REQUESTS), shell.url);
      execFileSync('callgrind_control', ['-d', String(shell.child.pid)], { stdio: 'ignore' });
      execFileSync('callgrind_control', ['-i', 'off', String(shell.child.pid)], { stdio: 'ignore' });
      shell.child.removeAllListeners('exit');
      await new Promise((resolve) => (shell.child.once('exit', resolve), shell.child.kill('SIGTERM')));
      // The dump taken on request (`-d`, file `.1-<thread>`) holds the counts; the one at exit, what came after.
      const counts = countsOf(work, `cg-${name}.1-`);
      perRequest.get(variant)!.main.push(counts.main / REQUESTS);
      perRequest.get(variant)!.all.push(counts.all / REQUESTS);
      console.log(`${name}: ${(counts.main / REQUESTS / 1e6).toFixed(3)} M instructions per article request on the main thread, ${(counts.all / REQUESTS / 1e6).toFixed(3)} M in all threads`);
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const base = perRequest.get(VARIANTS[0]!)!;
  console.log(`\nInstructions per article request (M), mean of ${GENERATIONS} generation(s) [each], and over ${VARIANTS[0]}:`);
  for (const [variant, { main, all }] of perRequest) {
    const over = (values: number[], baseline: number[]) => `${((mean(values) / mean(baseline) - 1) * 100).toFixed(2)} %`;
    console.log(
      `  ${variant.padEnd(28)} main ${(mean(main) / 1e6).toFixed(3)} [${main.map((value) => (value / 1e6).toFixed(3)).join(', ')}] ${over(main, base.main)}; all threads ${(mean(all) / 1e6).toFixed(3)} [${all.map((value) => (value / 1e6).toFixed(3)).join(', ')}] ${over(all, base.all)}`,
    );
  }
  console.log(`spans received: ${receiver.spans.length}`);
} finally {
  for (const child of natives) child.kill('SIGTERM');
  await receiver.close();
  if (process.env.BENCH_KEEP) console.log(`kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
