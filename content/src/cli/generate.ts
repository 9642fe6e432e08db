/**
 * Writes generated articles as JSON Lines (one article per line).
 *
 *   npm run generate -w @khs/content -- --count 10000 [--seed 1] [--out path.jsonl]
 *
 * Without --out the lines go to stdout. Articles are produced and written one at a time, honouring
 * stream back-pressure, so 100k articles never sit in memory together.
 */
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { iterateGeneratedArticles } from '../generate-articles.js';

const USAGE = 'usage: generate --count <n> [--seed <int>] [--out <file.jsonl>]';

function parseInteger(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new Error(`--${name} is required\n${USAGE}`);
  }
  if (!/^-?\d+$/.test(value)) throw new Error(`--${name} must be an integer, got "${value}"\n${USAGE}`);
  return Number(value);
}

async function writeAll(out: Writable, count: number, seed: number): Promise<void> {
  for (const article of iterateGeneratedArticles(count, { seed })) {
    if (!out.write(`${JSON.stringify(article)}\n`)) {
      await new Promise<void>((resolve) => out.once('drain', resolve));
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { count: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = parseInteger('count', values.count);
  if (count < 0) throw new Error(`--count must not be negative\n${USAGE}`);
  const seed = parseInteger('seed', values.seed, 1);

  const started = performance.now();
  if (values.out) {
    const file = createWriteStream(values.out);
    await writeAll(file, count, seed);
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.error(`wrote ${count} articles (seed ${seed}) to ${values.out} in ${seconds}s`);
  } else {
    await writeAll(process.stdout, count, seed);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
