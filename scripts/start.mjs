#!/usr/bin/env node
// `npm start`: builds every part, then starts the site through the shared stack starter
// (tooling/stack, the same one the e2e harness uses): each remote served from its own origin (as
// its CDN would), the embedded search server (unless TYPESENSE_HOST points at a real Typesense),
// each team service, then the shell (with SQLite in .data unless DATA_DIR/DATABASE_URL say
// otherwise) — each its own process, supervised by this one (restarted when it dies or hangs, ended
// when this process ends, however it ends). Each part takes its default port from the registry
// (tooling/stack/registry.mjs); a port already taken stops the start with its name (no second copy
// on other ports over the same data). Secrets not set in the environment are generated once and
// kept in the data folder (`secrets.json`, mode 0600). Prints the URL and the base URL of
// sharing/PDF links.
// Each remote's origin is its deploy target in .origins/<remote> (tooling/deploy): the fresh build is
// deployed there first, and `npm run deploy -w <remote>` / `npm run rollback -w <remote>` switch
// what the running site loads, without a restart.
// `npm start -- --no-build` skips the build and serves what is live in each deploy target (it never
// deploys dist/ over it; README "Run it"). STACK_PORT_OFFSET shifts every default port (a second
// site beside the first, with its own DATA_DIR and ORIGINS_DIR, the folder of its deploy targets);
// `--free-ports` puts every part on a free port instead (a site started by a test in a throwaway
// copy of the checkout, beside whatever else runs: e2e/tests/slice-joins.spec.ts).
// First: on a Node too old it stops here, with the command to run, before anything is loaded.
import './requireSupportedNode.mjs';
import path from 'node:path';
import { LOCAL_ORIGINS_DIR } from '@khs/deploy';
import { childLineRelay, startProcessLogs } from '@khs/observability';
import { startStack } from '@khs/stack';
import { ROOT, run } from './lib.mjs';

const noBuild = process.argv.includes('--no-build');
const freePorts = process.argv.includes('--free-ports');
// Every part logs JSON lines; in a terminal they are printed for people (LOG_FORMAT=json keeps JSON).
const env = { ...(process.stdout.isTTY ? { LOG_FORMAT: 'pretty' } : {}), ...process.env };
// This process's own lines (the stack's, the supervisor's) are JSON lines of `stack` too; the
// parts' lines are printed as they come.
const logger = startProcessLogs('stack', env);
if (!noBuild) {
  const code = await run('npm', ['run', 'build']);
  if (code !== 0) process.exit(code);
}

const stack = await startStack({
  preferDefaultPorts: !freePorts,
  portOffset: Number(process.env.STACK_PORT_OFFSET ?? 0),
  deployedOrigins: process.env.ORIGINS_DIR ? path.resolve(process.env.ORIGINS_DIR) : LOCAL_ORIGINS_DIR,
  keepLive: noBuild,
  dataDir: path.resolve(ROOT, process.env.DATA_DIR ?? '.data'),
  env,
  log: childLineRelay(logger, env),
}).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(JSON.stringify({ event: 'listening', url: stack.url, pids: stack.pids() }));

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void stack.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await stack.shellExit;
