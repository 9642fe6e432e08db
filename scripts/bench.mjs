#!/usr/bin/env node
// `npm run bench`: the foundation and page-weight benchmarks (both before/after against a built
// checkout named by BENCH_BASELINE_ROOT, when set: benchCheckouts.ts); `npm run bench -- --all` also runs every
// package's own `bench` script. Figures are printed, never asserted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run } from './lib.mjs';
import { workspaceFolders } from './workspaces.mjs';

let failed = 0;
failed += (await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/bench-foundation.ts'])) === 0 ? 0 : 1;
failed += (await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/bench-page-weight.ts'])) === 0 ? 0 : 1;
if (process.argv.includes('--all')) {
  for (const workspace of workspaceFolders()) {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8'));
    if (!pkg.scripts?.bench) continue;
    console.log(`\n=== ${pkg.name} ===`);
    failed += (await run('npm', ['run', 'bench', '-w', pkg.name])) === 0 ? 0 : 1;
  }
}
process.exit(failed === 0 ? 0 : 1);
