#!/usr/bin/env node
// `npm start`: builds every part, then starts the site through the shared stack starter
// (tooling/stack, the same one the e2e harness uses): each remote served from its own origin (as
// its CDN would), the embedded search server as its own supervised process (unless TYPESENSE_HOST
// points at a real Typesense), then the shell (with SQLite in .data unless DATA_DIR/DATABASE_URL
// say otherwise). Each part takes its default port from the registry (tooling/stack/registry.mjs)
// when free. Prints the URL and the base URL of sharing/PDF links.
// Each remote's origin is its deploy target in .origins/<remote> (tooling/deploy): the fresh build is
// deployed there first, and `npm run deploy -w <remote>` / `npm run rollback -w <remote>` switch
// what the running site loads, without a restart.
// `npm start -- --no-build` skips the build.
import path from 'node:path';
import { LOCAL_ORIGINS_DIR } from '@khs/deploy';
import { startStack } from '@khs/stack';
import { ROOT, run } from './lib.mjs';

if (!process.argv.includes('--no-build')) {
  const code = await run('npm', ['run', 'build']);
  if (code !== 0) process.exit(code);
}

const stack = await startStack({
  preferDefaultPorts: true,
  deployedOrigins: LOCAL_ORIGINS_DIR,
  dataDir: path.resolve(ROOT, process.env.DATA_DIR ?? '.data'),
  env: { ...process.env },
  log: (line) => console.log(line),
}).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

const stop = () => void stack.close();
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
const code = await stack.shellExit;
await stack.close();
process.exit(code);
