// Imported first by `npm start`, `npm test` and `npm run dev` (before anything that could load a
// native module: better-sqlite3 13 crashes Node 20 with SIGSEGV): on a Node older than the root
// package.json's `engines.node` allows, it stops at once with one line naming the command to run.
// Its only imports are Node's own, so it runs on any Node.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');
/** The command a person ran, as it is named in the line, by the script it runs. */
const COMMANDS = { 'start.mjs': 'npm start', 'test-all.mjs': 'npm test', 'devCli.mjs': 'npm run dev' };

const version = (text) => text.replace(/^v/, '').split('.').map(Number);
const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether Node `current` ("24.1.0") satisfies `range`: alternatives joined by `||`, each `^x.y.z`,
 * `>=x.y.z` or `x.y.z` (the forms package.json uses). Another form throws: say so rather than guess.
 */
export function nodeSatisfies(current, range) {
  const have = version(current);
  return range.split('||').some((alternative) => {
    const text = alternative.trim();
    const match = /^(\^|>=)?(\d+)\.(\d+)\.(\d+)$/.exec(text);
    if (!match) throw new Error(`unsupported engines.node form: "${text}"`);
    const want = [Number(match[2]), Number(match[3]), Number(match[4])];
    if (match[1] === '>=') return compare(have, want) >= 0;
    if (match[1] === '^') return have[0] === want[0] && compare(have, want) >= 0;
    return compare(have, want) === 0;
  });
}

/** The one line for a Node that is too old, or undefined when `current` is supported. */
export function unsupportedNodeLine(current, range, command) {
  if (nodeSatisfies(current, range)) return undefined;
  return `Node ${current} is not supported here (package.json engines: ${range}; better-sqlite3 crashes older ones): run bash scripts/with-node24.sh bash -c 'npm ci && ${command}'`;
}

const range = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
const line = unsupportedNodeLine(process.versions.node, range, COMMANDS[path.basename(process.argv[1] ?? '')] ?? `node ${path.relative(ROOT, process.argv[1] ?? '')}`);
if (line) {
  console.error(line);
  process.exit(1);
}
