// Sends a corpus with bounded concurrency and sums up what came back.
import type { FuzzCase } from './corpus.js';
import type { FuzzPart } from './routes.js';
import { sendRaw, type RawOutcome } from './rawHttp.js';

export interface CaseResult {
  fuzzCase: FuzzCase;
  outcome: RawOutcome;
}

export interface CorpusRun {
  results: CaseResult[];
  /** Answers per status code, plus `closed` (no status line) and `hang`. */
  byStatus: Record<string, number>;
  failures: CaseResult[];
  ms: number;
}

export interface RunOptions {
  /** Where each part listens. */
  addressOf: (part: FuzzPart) => { host: string; port: number };
  /** Cases sent at once to the parts that share the pool. */
  concurrency: number;
  timeoutMs: number;
  /**
   * Parts sent one case at a time, each in its own lane beside the pool, and checked after every
   * case that got no answer: `crashed` says whether the part's process died (the runner then marks
   * the case as the crash and the part is restarted before the next case).
   */
  watched?: { parts: FuzzPart[]; crashed: (part: FuzzPart) => Promise<string | undefined> };
}

/** A failure: a 5xx answer, none in time, a crash, or a part that no longer accepts connections. */
export function isFailure(outcome: RawOutcome): boolean {
  return (
    outcome.kind === 'hang' ||
    outcome.kind === 'crash' ||
    (outcome.kind === 'closed' && outcome.error === 'ECONNREFUSED') ||
    (outcome.kind === 'response' && outcome.status >= 500)
  );
}

/** How an outcome is counted in the summary. */
export function outcomeLabel(outcome: RawOutcome): string {
  if (outcome.kind === 'closed' && outcome.error === 'ECONNREFUSED') return 'refused';
  return outcome.kind === 'response' ? String(outcome.status) : outcome.kind;
}

/**
 * Each case from its own loopback address (127.1.x.y): the site's per-address rate limits then
 * refuse a case for what it is, not for the hundreds sent before it.
 */
function clientAddress(index: number): string {
  return `127.1.${(index >> 8) & 255}.${(index & 255) || 1}`;
}

/** Runs `cases`, `concurrency` at a time, each with its own timeout. */
export async function runCorpus(cases: FuzzCase[], options: RunOptions): Promise<CorpusRun> {
  const started = performance.now();
  const results: CaseResult[] = new Array(cases.length);
  const send = async (index: number) => {
    const fuzzCase = cases[index]!;
    const { host, port } = options.addressOf(fuzzCase.part);
    const outcome = await sendRaw({ host, port, localAddress: clientAddress(index), pieces: fuzzCase.pieces, timeoutMs: options.timeoutMs, ...(fuzzCase.head ? { head: true } : {}) });
    results[index] = { fuzzCase, outcome };
    return outcome;
  };
  const watchedParts = new Set(options.watched?.parts ?? []);
  const lane = async (indexes: number[], concurrency: number, part?: FuzzPart) => {
    let next = 0;
    const worker = async () => {
      while (next < indexes.length) {
        const index = indexes[next++]!;
        const outcome = await send(index);
        if (part && outcome.kind !== 'response') {
          const crash = await options.watched!.crashed(part);
          if (crash) results[index] = { fuzzCase: cases[index]!, outcome: { kind: 'crash', ms: outcome.ms, error: crash } };
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  const indexesOf = (belongs: (part: FuzzPart) => boolean) => cases.flatMap((fuzzCase, index) => (belongs(fuzzCase.part) ? [index] : []));
  await Promise.all([
    lane(indexesOf((part) => !watchedParts.has(part)), options.concurrency),
    ...[...watchedParts].map((part) => lane(indexesOf((other) => other === part), 1, part)),
  ]);
  const byStatus: Record<string, number> = {};
  for (const { outcome } of results) byStatus[outcomeLabel(outcome)] = (byStatus[outcomeLabel(outcome)] ?? 0) + 1;
  return { results, byStatus, failures: results.filter((result) => isFailure(result.outcome)), ms: Math.round(performance.now() - started) };
}

/** The summary printed after a run: requests, statuses, 5xx, hangs, time, per part. */
export function summarize(run: CorpusRun): string {
  const sorted = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, count]) => `${label}: ${count}`)
      .join(', ');
  const perPart = new Map<string, Record<string, number>>();
  for (const { fuzzCase, outcome } of run.results) {
    const counts = perPart.get(fuzzCase.part) ?? {};
    counts[outcomeLabel(outcome)] = (counts[outcomeLabel(outcome)] ?? 0) + 1;
    perPart.set(fuzzCase.part, counts);
  }
  const fiveHundreds = run.results.filter(({ outcome }) => outcome.kind === 'response' && outcome.status >= 500).length;
  const count = (label: string) => run.byStatus[label] ?? 0;
  return [
    `fuzz: ${run.results.length} requests in ${(run.ms / 1000).toFixed(1)} s; 5xx: ${fiveHundreds}; hangs: ${count('hang')}; crashes: ${count('crash')}; refused connections: ${count('refused')}`,
    `statuses: ${sorted(run.byStatus)}`,
    ...[...perPart].map(([part, counts]) => `  ${part}: ${sorted(counts)}`),
    'slowest answers:',
    ...run.results
      .filter(({ outcome }) => outcome.kind === 'response')
      .sort((a, b) => b.outcome.ms - a.outcome.ms)
      .slice(0, 8)
      .map(({ fuzzCase, outcome }) => `  ${outcome.ms} ms ${outcomeLabel(outcome)}  ${fuzzCase.name}`),
  ].join('\n');
}
