// Observability overhead benchmark (prints figures, asserts nothing): the shell's CPU time per
// article request with metrics off (KHS_METRICS=off), metrics on (the default), and tracing on
// (metrics on and OTLP export to a local receiver) recording every trace and at the default
// sampling ratio (a tenth of the traces the shell starts), over interleaved repeats.
//
// It starts what an article page needs, one part after the other (no start deadline, so a busy
// machine only makes it slower): each remote's static origin, the search server, and six shells
// alike but for the variant: two with metrics off (the baseline and its twin: the difference
// between the two is the measurement's own noise), one with metrics on, one tracing every trace
// (`OTEL_TRACES_SAMPLER=parentbased_always_on`: OpenTelemetry's default, what the shell did before
// it sampled), one tracing at the default ratio (no sampler setting), and one with the SDK loaded
// that records nothing (`always_off`: the cost of the SDK's presence, apart from the spans). No request carries a
// `traceparent`, so the shell starts every trace: the ratio decides.
//
// What is measured is CPU time, not wall-clock time: each shell's threads' time on a CPU
// (`/proc/<pid>/task/*/schedstat`, nanoseconds). Time a shell waits for a CPU on a busy machine is
// not in it; what a busy machine still adds (caches and cores shared with others' work, which
// changes from second to second) falls on the six alike, because they work at the same time: each
// article request goes to every shell at once, so a round of requests is the same work under the
// same conditions for each. The readings are taken at each round's end, one after the other, so
// everything a shell does counts, its background work too (the span exporter's timer, the metrics'
// event-loop monitor). Per round, each variant over the same round's baseline; the figures are the
// median of those ratios with their spread (p25–p75), and the ratio of all rounds' CPU. Linux only.
//
// Two identical shells differ by a few per cent over a whole run (their heaps and what the JIT
// optimised differ): the rounds are split over BENCH_GENERATIONS sets of six fresh shells, each
// warmed up (until each shell that records has also sent its spans once: a first export is a
// start-up cost), so that a process's own state averages out like the rounds' noise does. Each
// generation's ratios (its CPU over its rounds) are printed too as a mean with a 95 % bootstrap
// interval, pair by pair (the tracing shells also over one another): how far a run's figure may move.
//
//   npx tsx scripts/bench-observability.ts   (BENCH_ROUNDS=40, BENCH_GENERATIONS=4, BENCH_REQUESTS=40, BENCH_CONCURRENCY=2, BENCH_WARMUP=200, BENCH_IDLE_SECONDS=30)
//   BENCH_CPU_PROFILE_DIR=/tmp/profiles …    also writes each shell's V8 CPU profile there (--cpu-prof; open in Chrome's DevTools)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { listArticles } from '@khs/content';
import { startOtlpReceiver } from '@khs/observability/otlp-receiver';
import { REMOTES } from '@khs/stack/registry';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
/** Fresh sets of shells the rounds are split over (at least one round each). */
const GENERATIONS = Math.max(1, Math.min(ROUNDS, Number(process.env.BENCH_GENERATIONS ?? 4)));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
/** Seconds without requests at the end: each shell's CPU per second of its background work alone. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const SEARCH_KEY = 'bench-search-key-0123456789';

const VARIANTS = ['metrics off', 'metrics off (twin)', 'metrics on', 'tracing, every trace', 'tracing, default ratio', 'tracing, none recorded'] as const;
type Variant = (typeof VARIANTS)[number];
const BASELINE: Variant = 'metrics off';

/**
 * CPU time every thread of `pid` has used so far, milliseconds: the first field of each thread's
 * schedstat (time on a CPU, ns). A thread gone between the listing and the read counts nothing.
 */
function cpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nanoseconds / 1e6;
}

/**
 * CPU time of each thread of `pid` so far, ms, by thread id, with the thread's name (`comm`, as Node 24
 * names them: `MainThread`, `V8Worker` for V8's garbage collector and compiler threads, `libuv-worker`
 * for libuv's pool): which kind of work a variant adds, beyond the main thread a CPU profile sees.
 */
function cpuMsByThread(pid: number): Map<string, { name: string; ms: number }> {
  const threads = new Map<string, { name: string; ms: number }>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ms = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      threads.set(task, { name: readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim(), ms });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

const children: ChildProcess[] = [];
/** Starts a node process and resolves with the URL of its `{"event":"listening"}` line. */
function start(args: string[], env: Record<string, string>, cwd = ROOT): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: '', LOG_FORMAT: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it listened`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"event":"listening"')) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
  });
}

/**
 * Sends each of `paths` to every shell at once (the shells in a shuffled order each time), `CONCURRENCY`
 * paths at a time: every shell does the same work at the same moments.
 */
async function requestRound(paths: string[], origins: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const pathname = paths[next++]!;
      const order = [...origins].sort(() => Math.random() - 0.5);
      await Promise.all(
        order.map(async (origin) => {
          const response = await fetch(new URL(pathname, origin));
          if (response.status !== 200) throw new Error(`${response.url} answered ${response.status}`);
          await response.arrayBuffer();
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The value at fraction `q` of `values` (0.5: the median), by linear interpolation. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low);
}
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => sum(values) / values.length;

/** Resamples a percentile bootstrap draws: enough for a 95 % interval steady to a tenth of a point. */
const BOOTSTRAP_RESAMPLES = 10_000;
/**
 * The mean of `values` (one per generation of fresh shells) and its 95 % percentile-bootstrap
 * interval: a generation is the unit that varies (a process's heap and compiled code), so the
 * interval says how far another run's figure may fall, which rounds within one generation cannot.
 */
function meanWithInterval(values: number[]): { mean: number; low: number; high: number } {
  const means = Array.from({ length: BOOTSTRAP_RESAMPLES }, () => mean(Array.from(values, () => values[Math.floor(Math.random() * values.length)]!)));
  return { mean: mean(values), low: quantile(means, 0.025), high: quantile(means, 0.975) };
}
const percent = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %`;
const loadAverage = () => os.loadavg().map((value) => value.toFixed(1)).join(' / ');

// One receiver per tracing shell, to count each one's spans.
const receivers = { every: await startOtlpReceiver(), ratio: await startOtlpReceiver(), none: await startOtlpReceiver() };
const work = mkdtempSync(path.join(tmpdir(), 'khs-bench-observability-'));
try {
  const loadAtStart = loadAverage();
  const manifests: Record<string, string> = {};
  for (const remote of REMOTES) {
    const origin = await start([path.join(ROOT, 'tooling/static-server/cli.mjs'), path.join(ROOT, remote.name, 'dist'), '0'], {});
    manifests[remote.manifestEnv] = `${origin.url}/mf-manifest.json`;
  }
  const search = new URL((await start([path.join(ROOT, 'search-engine/dist/start.js')], { SEARCH_PORT: '0', SEARCH_DATA_DIR: path.join(work, 'search'), TYPESENSE_SEARCH_API_KEY: SEARCH_KEY })).url);
  const variantEnv: Record<Variant, Record<string, string>> = {
    'metrics off': { KHS_METRICS: 'off' },
    'metrics off (twin)': { KHS_METRICS: 'off' },
    'metrics on': {},
    'tracing, every trace': { OTEL_EXPORTER_OTLP_ENDPOINT: receivers.every.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
    'tracing, default ratio': { OTEL_EXPORTER_OTLP_ENDPOINT: receivers.ratio.endpoint },
    // The SDK loaded and every request's trace context carried, but no span recorded: what the SDK costs by being there.
    'tracing, none recorded': { OTEL_EXPORTER_OTLP_ENDPOINT: receivers.none.endpoint, OTEL_TRACES_SAMPLER: 'always_off' },
  };
  const loader = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const articles = listArticles().slice(0, 30);
  const paths = Array.from({ length: REQUESTS }, (_, index) => `/articles/${articles[index % articles.length]!.id}`);
  /** Requests sent to each shell to warm it up, over all generations. */
  let warmupRequests = 0;
  /** Starts the six shells of one generation (in a shuffled order) and warms them up. */
  const startGeneration = async (generation: number): Promise<Map<Variant, { child: ChildProcess; url: string }>> => {
    const started = new Map<Variant, { child: ChildProcess; url: string }>();
    for (const name of [...VARIANTS].sort(() => Math.random() - 0.5)) {
      const env = { ...manifests, PORT: '0', DATA_DIR: path.join(work, `${generation}-${name.replace(/\W+/g, '-')}`), TYPESENSE_HOST: search.hostname, TYPESENSE_PORT: search.port, TYPESENSE_PROTOCOL: 'http', TYPESENSE_SEARCH_API_KEY: SEARCH_KEY, ...variantEnv[name] };
      const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`, `--cpu-prof-name=shell-${name.replace(/\W+/g, '-')}-${generation}.cpuprofile`] : [];
      started.set(name, await start([...profile, '--import', loader, 'src/server/main.ts'], env, path.join(ROOT, 'shell')));
    }
    // Warm-up: every shell has loaded the remotes, compiled its hot code and rendered each article a few times…
    const origins = VARIANTS.map((variant) => started.get(variant)!.url);
    const spansBefore = [receivers.every.spans.length, receivers.ratio.spans.length];
    await requestRound(Array.from({ length: WARMUP }, (_, index) => paths[index % paths.length]!), origins);
    warmupRequests += WARMUP;
    // …and each shell that records has sent its spans once. A process's first export runs code
    // nothing ran before (the serializer, the sending): a start-up cost, which at the default ratio
    // (a batch every OTEL_BSP_SCHEDULE_DELAY, 5 s) fell in the measured rounds of that shell alone,
    // while the shell recording every trace fills a batch of 512 within the warm-up.
    const deadline = Date.now() + 60_000;
    while ((receivers.every.spans.length === spansBefore[0] || receivers.ratio.spans.length === spansBefore[1]) && Date.now() < deadline) {
      await requestRound(paths, origins);
      warmupRequests += paths.length;
    }
    return started;
  };
  const stopGeneration = (running: Map<Variant, { child: ChildProcess; url: string }>) =>
    Promise.all([...running.values()].map(({ child }) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))))));

  const startedAt = Date.now();
  const perRequest = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, []]));
  let measuring = 0;
  let pids: number[] = [];
  let readings: number[] = [];
  let shells = new Map<Variant, { child: ChildProcess; url: string }>();
  /** Per generation, each variant's CPU over its rounds, ms (in VARIANTS' order). */
  const perGeneration: number[][] = [];
  /** Per variant, CPU over all measured rounds by thread name, ms. */
  const byThreadName = new Map<Variant, Map<string, number>>(VARIANTS.map((variant) => [variant, new Map()]));
  for (let generation = 0; generation < GENERATIONS; generation++) {
    if (generation > 0) await stopGeneration(shells);
    shells = await startGeneration(generation);
    const origins = VARIANTS.map((variant) => shells.get(variant)!.url);
    pids = VARIANTS.map((variant) => shells.get(variant)!.child.pid!);
    const rounds = Math.floor(ROUNDS / GENERATIONS) + (generation < ROUNDS % GENERATIONS ? 1 : 0);
    const measuredFrom = Date.now();
    const threadsAtStart = pids.map(cpuMsByThread);
    readings = pids.map(cpuMs);
    const generationCpu = VARIANTS.map(() => 0);
    for (let round = 0; round < rounds; round++) {
      await requestRound(paths, origins);
      const now = pids.map(cpuMs);
      VARIANTS.forEach((variant, index) => {
        perRequest.get(variant)!.push((now[index]! - readings[index]!) / REQUESTS);
        generationCpu[index]! += now[index]! - readings[index]!;
      });
      readings = now;
    }
    perGeneration.push(generationCpu);
    VARIANTS.forEach((variant, index) => {
      const totals = byThreadName.get(variant)!;
      for (const [thread, { name, ms }] of cpuMsByThread(pids[index]!)) totals.set(name, (totals.get(name) ?? 0) + ms - (threadsAtStart[index]!.get(thread)?.ms ?? 0));
    });
    measuring += Date.now() - measuredFrom;
  }
  const minutes = ((Date.now() - startedAt) / 60_000).toFixed(1);
  const requestsPerSecond = (ROUNDS * REQUESTS) / (measuring / 1000);
  // Background work (timers: the event-loop monitor, the span exporter's) costs per second, not per
  // request: its share of a request's figure grows as a busy machine slows the requests down. Read
  // on the last generation's shells.
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idle = pids.map(cpuMs).map((value, index) => (value - readings[index]!) / IDLE_SECONDS);

  const baseline = perRequest.get(BASELINE)!;
  console.log(
    `\nShell CPU time per article request: ${ROUNDS} rounds of ${REQUESTS} article requests, each sent to the ${VARIANTS.length} shells at once (${CONCURRENCY} at a time), over ${GENERATIONS} generations of fresh shells each warmed up with ${WARMUP} and until its spans were sent once (${(warmupRequests / GENERATIONS).toFixed(0)} requests on average); ${minutes} min.` +
      `\nNode ${process.version}, ${os.cpus().length} CPUs; load average (1/5/15 min) ${loadAtStart} at the start, ${loadAverage()} at the end.`,
  );
  console.log(`\n  ${'variant'.padEnd(22)}  median     p25–p75            all rounds   over metrics off: median of rounds (p25–p75), all rounds`);
  for (const variant of VARIANTS) {
    const values = perRequest.get(variant)!;
    const total = sum(values) / values.length;
    const line = `  ${variant.padEnd(22)}  ${quantile(values, 0.5).toFixed(3)} ms  ${quantile(values, 0.25).toFixed(3)}–${quantile(values, 0.75).toFixed(3)} ms  ${total.toFixed(3)} ms`;
    if (variant === BASELINE) {
      console.log(`${line}   (baseline)`);
      continue;
    }
    // Paired: each round's figure over the same round's baseline.
    const ratios = values.map((value, round) => value / baseline[round]! - 1);
    const overall = sum(values) / sum(baseline) - 1;
    console.log(`${line}   ${percent(quantile(ratios, 0.5))} (${percent(quantile(ratios, 0.25))} to ${percent(quantile(ratios, 0.75))}), ${percent(overall)}${variant === 'metrics off (twin)' ? '   <- the noise: the same variant twice' : ''}`);
  }
  // Per generation: each pair's ratio in every set of fresh shells, their mean and its interval.
  if (GENERATIONS >= 3) {
    const pairs: [Variant, Variant][] = [
      ...VARIANTS.filter((variant) => variant !== BASELINE).map((variant): [Variant, Variant] => [variant, BASELINE]),
      ['tracing, none recorded', 'metrics on'],
      ['tracing, default ratio', 'metrics on'],
      ['tracing, default ratio', 'tracing, none recorded'],
      ['tracing, every trace', 'tracing, default ratio'],
    ];
    console.log(`\n  per generation of fresh shells (${GENERATIONS}): the mean of the generations' ratios, with its 95 % bootstrap interval`);
    for (const [variant, over] of pairs) {
      const ratios = perGeneration.map((cpu) => cpu[VARIANTS.indexOf(variant)]! / cpu[VARIANTS.indexOf(over)]! - 1);
      const { mean: average, low, high } = meanWithInterval(ratios);
      console.log(`  ${variant.padEnd(22)} over ${over.padEnd(22)}  ${percent(average)} (${percent(low)} to ${percent(high)})`);
    }
  }
  const names = [...new Set([...byThreadName.values()].flatMap((totals) => [...totals.keys()]))].sort();
  console.log(`\n  CPU per article request by thread name, ms: ${names.join(', ')}`);
  for (const variant of VARIANTS) {
    const totals = byThreadName.get(variant)!;
    console.log(`  ${variant.padEnd(22)}  ${names.map((name) => ((totals.get(name) ?? 0) / (ROUNDS * REQUESTS)).toFixed(3)).join('  ')}`);
  }
  console.log(
    `\n  background CPU with no requests (${IDLE_SECONDS} s), ms per second: ${VARIANTS.map((variant, index) => `${variant} ${idle[index]!.toFixed(2)}`).join(', ')}` +
      `\n  (the rounds ran ${requestsPerSecond.toFixed(1)} requests a second per shell: each ms/s over the baseline's adds ${(100 / requestsPerSecond / quantile(baseline, 0.5)).toFixed(1)} % to a request's figure)`,
  );
  const requests = ROUNDS * REQUESTS + warmupRequests;
  for (const [variant, receiver] of [['tracing, every trace', receivers.every], ['tracing, default ratio', receivers.ratio], ['tracing, none recorded', receivers.none]] as const) {
    console.log(`  spans received, ${variant}: ${receiver.spans.length} (${(receiver.spans.length / requests).toFixed(2)} per request, ${new Set(receiver.spans.map((span) => span.traceId)).size} traces of ${requests} requests)`);
  }
} finally {
  // Each ends on its own (a shell writes its CPU profile as it exits).
  await Promise.all(
    children.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))))),
  );
  await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
  rmSync(work, { recursive: true, force: true });
}
