#!/usr/bin/env node
// Compiles the search service for running: `dist/supervise.js` (the supervisor), `dist/start.js`
// (the server process: HTTP thread and worker pool), `dist/search-worker.js` (a search worker
// thread) and `dist/otlpExportWorker.js` (the thread sending spans, with tracing on), each one
// self-contained ESM bundle run by plain node. Running the sources through tsx
// cost ~25 MB of resident memory in the supervisor alone, plus an esbuild helper process in each
// process while it compiled (see the package README, "Memory").
//
// Never stale: `npm start` (here and at the root, through tooling/stack) runs this before it starts
// the service, every time; tests and dev tools run the sources with tsx. The stack asks for
// `ifStale`: the build keeps the stamp of its inputs (`dist/build-inputs.json`, @khs/stack's
// buildStamp.mjs) and builds again only when one changed (a start on a busy machine spent seconds
// bundling the same sources again).
//
//   node scripts/build-server.mjs [--outdir DIR] [--if-stale]
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';
import { isBuildFresh, writeBuildStamp } from '@khs/stack/build-stamp';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm start` runs the service from. */
export const DEFAULT_OUTDIR = path.join(PACKAGE_DIR, 'dist');
// The last: the thread that sends the spans with tracing on (`@khs/observability` starts it from beside itself).
const ENTRY_POINTS = ['src/cli/supervise.ts', 'src/cli/start.ts', 'src/pool/search-worker.ts', '../libs/observability/otlpExportWorker.js'];
/** The stamp's builder: another esbuild (or another way of building here) builds anew. */
const BUILDER = `search-engine build-server 1, esbuild ${esbuildVersion}`;

/**
 * Bundles the entry points into `outdir` (flat: the supervisor finds `start.js` and the pool
 * finds `search-worker.js` beside themselves). Each file is written to a temporary name and renamed,
 * so a process starting meanwhile (parallel test stacks) reads either the old or the new file whole.
 * With `ifStale`, nothing is built when the stamp of the last build's inputs still matches them.
 * Returns the files (written or, with `ifStale`, kept).
 */
export async function buildSearchServer({ outdir = DEFAULT_OUTDIR, ifStale = false } = {}) {
  const stampFile = path.join(outdir, 'build-inputs.json');
  if (ifStale && isBuildFresh(stampFile, BUILDER)) return ENTRY_POINTS.map((entry) => path.join(outdir, `${path.basename(entry, '.ts')}.js`));
  const startedAt = Date.now();
  const result = await build({
    absWorkingDir: PACKAGE_DIR,
    entryPoints: ENTRY_POINTS,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    entryNames: '[name]',
    write: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    // CommonJS packages in the bundle (prom-client, pino) require Node's own modules: an ESM bundle
    // has no `require` of its own.
    banner: { js: "import { createRequire as __khsCreateRequire } from 'node:module'; const require = __khsCreateRequire(import.meta.url);" },
  });
  mkdirSync(outdir, { recursive: true });
  const written = [];
  for (const file of result.outputFiles) {
    let current;
    try {
      current = readFileSync(file.path);
    } catch {
      current = undefined;
    }
    written.push(file.path);
    if (current && Buffer.compare(current, Buffer.from(file.contents)) === 0) continue;
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  // The npm packages it bundles are inputs too: an update of one builds anew.
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(PACKAGE_DIR, input));
  writeBuildStamp(stampFile, [...inputs, path.join(PACKAGE_DIR, 'tsconfig.json'), path.join(PACKAGE_DIR, '../tsconfig.base.json')], BUILDER, startedAt);
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--outdir');
  const outdir = i >= 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : DEFAULT_OUTDIR;
  try {
    await buildSearchServer({ outdir, ifStale: process.argv.includes('--if-stale') });
  } catch (error) {
    console.error(`search-engine build failed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
