#!/usr/bin/env node
// `npm test`: everything CI checks, in order. Installs Chromium, Firefox ESR, WebKitGTK's driver and
// Xvfb, nginx (and PostgreSQL for the storage tests) from Debian's packages when missing and
// possible; says clearly what it could not do.
// First: on a Node too old it stops here, with the command to run, before anything is loaded.
import './requireSupportedNode.mjs';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, capture, run } from './lib.mjs';
import { workspaceFolders } from './workspaces.mjs';

// First line: the Node this run is on, and the one its children get from PATH (`npm`, `npx` and
// `node` spawned by the steps), so a run under scripts/with-node24.sh shows both are Node 24.
const childNode = (await capture('node', ['--version'])).stdout.trim();
console.log(`[test] Node ${process.version} (children: node ${childNode || 'not found on PATH'})`);
if (childNode && childNode !== process.version) {
  console.warn(`[test] warning: this runs on Node ${process.version} but \`node\` on PATH is ${childNode}`);
}

const results = [];
async function step(name, fn) {
  const started = Date.now();
  const ok = await fn();
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  console.log(`\n[test] ${ok ? 'ok  ' : 'FAIL'} ${name} (${results.at(-1).seconds} s)\n`);
  return ok;
}

const isRoot = process.getuid?.() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
let aptUpdated = false;
async function aptInstall(packages) {
  if (!aptUpdated) {
    await run('apt-get', ['update', '-qq']);
    aptUpdated = true;
  }
  return (await run('apt-get', ['install', '-y', '-qq', ...packages], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })) === 0;
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ready = await step('browser for end-to-end tests', async () => {
  const needed = [];
  if (!existsSync(chromium)) needed.push('chromium');
  if (!existsSync('/usr/bin/pdftotext')) needed.push('poppler-utils');
  if (needed.length === 0) return true;
  if (!isRoot || !hasApt) {
    console.error(
      `Missing ${needed.join(', ')}. Install with "sudo apt-get install -y ${needed.join(' ')}" (Debian/Ubuntu), ` +
        'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
    return false;
  }
  return (await aptInstall(needed)) && existsSync(chromium);
});

// The cross-engine subset (e2e/engines) also runs in Firefox ESR, driven over WebDriver BiDi, and
// in WebKitGTK (WebKitWebDriver with its MiniBrowser on an Xvfb of its own): Debian's packages.
const firefox = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const webkitDriver = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const miniBrowser = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const xvfb = '/usr/bin/Xvfb';
const enginesReady = await step('browsers for the cross-engine subset (Firefox ESR, WebKitGTK)', async () => {
  const needed = new Set();
  if (!existsSync(firefox)) needed.add('firefox-esr');
  if (!existsSync(webkitDriver) || !existsSync(miniBrowser)) needed.add('webkit2gtk-driver');
  if (!existsSync(xvfb)) needed.add('xvfb');
  if (needed.size === 0) return true;
  if (!isRoot || !hasApt) {
    console.error(
      `Missing ${[...needed].join(', ')}. Install with "sudo apt-get install -y ${[...needed].join(' ')}" (Debian/Ubuntu), ` +
        'or set FIREFOX_PATH, WEBKIT_DRIVER_PATH and MINIBROWSER_PATH.',
    );
    return false;
  }
  return (await aptInstall([...needed])) && [firefox, webkitDriver, miniBrowser, xvfb].every((file) => existsSync(file));
});

// The scale-out test runs two shells behind Debian's nginx (e2e/tests/scale-out-nginx.spec.ts); it
// starts nginx itself with a generated config, so only the program is needed. Without it that
// test is skipped (with the reason), the rest runs.
const nginx = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
if (!existsSync(nginx)) {
  if (isRoot && hasApt) await step('nginx for the scale-out test', async () => (await aptInstall(['nginx'])) && existsSync(nginx));
  else console.error(`nginx is missing: the scale-out test will be skipped. Install it with "sudo apt-get install -y nginx", or set NGINX_PATH.`);
}

// promtool checks the operators' Prometheus configuration and alert rules (scripts/observability.test.ts).
if ((await capture('promtool', ['--version'])).code !== 0) {
  if (isRoot && hasApt) await step('promtool for the Prometheus files', async () => (await aptInstall(['--no-install-recommends', 'prometheus'])) && (await capture('promtool', ['--version'])).code === 0);
  else console.error('promtool is missing: the Prometheus checks will fail. Install it with "sudo apt-get install -y prometheus", or set PROMTOOL_PATH.');
}

await step('remotes do not import each other', async () => (await run('node', ['scripts/check-remote-imports.mjs'])) === 0);
await step('styles of the shell and the remotes stay isolated', async () => (await run('node', ['scripts/check-remote-styles.mjs'])) === 0);
// Lint and typecheck read the same sources and write nothing the other reads: side by side.
await Promise.all([
  step('lint (ESLint, cached)', async () => (await run('npm', ['run', 'lint', '--silent'])) === 0),
  step('typecheck', async () => (await run('npm', ['run', 'typecheck', '--silent'])) === 0),
]);
const built = await step('build every package', async () => (await run('npm', ['run', 'build', '--silent'])) === 0);

// PostgreSQL for the storage tests: an existing DATABASE_URL, else a throwaway local cluster.
let postgres;
const env = { ...process.env };
if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) {
  env.TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
} else if (existsSync(path.join(ROOT, 'tooling/local-postgres/start.sh'))) {
  const started = await capture('bash', ['tooling/local-postgres/start.sh']);
  const lines = started.stdout.trim().split('\n');
  const url = lines.at(-1)?.replace(/^DATABASE_URL=/, '');
  if (started.code === 0 && url) {
    env.TEST_DATABASE_URL = url;
    postgres = lines.find((line) => line.startsWith('PG_DIR='))?.slice('PG_DIR='.length);
    console.log('[test] PostgreSQL storage tests run against a local throwaway cluster');
  } else {
    console.log('[test] PostgreSQL storage tests SKIPPED: no DATABASE_URL and no local PostgreSQL could be started');
  }
}

// vitest's own limits (5 s a test, 10 s a hook) are clocks: on a machine busy with other work a
// password hash or a spawned CLI passes them and the test fails for the machine's speed. Here a
// test's limit only catches a hang, so it is far above any test's time on a quiet machine. A test
// that sets its own limit keeps it. Every package's vitest is plain `vitest run`, so it takes these.
const UNIT_TEST_HANG_GUARD_MS = 180_000;
// vitest runs `availableParallelism() - 1` test files at once: one on a 2-core machine, so files
// that mostly wait (on a spawned search server, a socket, a browser) ran one after the other.
// The test files bind port 0 and write in their own temporary folder or PostgreSQL schema, so
// files of one package may run side by side (three at a time). UNIT_TEST_WORKERS overrides it.
const UNIT_TEST_WORKERS = Number(process.env.UNIT_TEST_WORKERS) || 3;
const vitestArgs = [`--testTimeout=${UNIT_TEST_HANG_GUARD_MS}`, `--hookTimeout=${UNIT_TEST_HANG_GUARD_MS}`, `--maxWorkers=${UNIT_TEST_WORKERS}`];
for (const workspace of workspaceFolders()) {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8'));
  if (!pkg.scripts?.test || workspace === 'e2e') continue;
  await step(`unit tests: ${pkg.name}`, async () => (await run('npm', ['test', '--silent', '-w', pkg.name, '--', ...vitestArgs], { env })) === 0);
}
await step('unit tests: repository scripts', async () => (await run('npx', ['vitest', 'run', '--config', 'scripts/vitest.config.ts', ...vitestArgs])) === 0);

if (ready && built) {
  await step('end-to-end tests (Playwright, Chromium)', async () => (await run('npm', ['test', '--silent', '-w', '@khs/e2e'], { env })) === 0);
} else {
  results.push({ name: 'end-to-end tests (Playwright, Chromium)', ok: false, seconds: '0.0' });
  console.error('[test] end-to-end tests not run: the browser or the build is missing (see above)');
}

// The cross-engine subset in the three engines, one after the other (e2e/engines/README.md).
const enginesStep = 'end-to-end subset in Chromium, Firefox ESR and WebKitGTK';
if (ready && enginesReady && built) {
  await step(enginesStep, async () => (await run('npm', ['run', 'test:engines', '--silent', '-w', '@khs/e2e'], { env })) === 0);
} else {
  results.push({ name: enginesStep, ok: false, seconds: '0.0' });
  console.error('[test] cross-engine subset not run: a browser or the build is missing (see above)');
}

if (postgres) await run('bash', ['tooling/local-postgres/stop.sh', postgres]);

const failed = results.filter((result) => !result.ok);
console.log('\n[test] summary');
for (const result of results) console.log(`  ${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds} s)`);
console.log(`steps: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length === 0 ? 0 : 1);
