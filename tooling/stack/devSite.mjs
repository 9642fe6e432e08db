// The dev starter (`npm run dev -w <remote>`): the whole site on one URL, as `npm start` runs it
// (startStack.mjs: every other remote from its origin, the search server, the team services, the
// shell), with one remote built from its sources in watch mode — browser and server targets
// (tooling/rspack-preset `createRemoteDevConfigs`). Each successful rebuild is deployed, as a
// production deploy would be, to the remote's own dev origin (a deploy target in a temporary
// folder, served by the stack's supervised origin process like every remote's): a new `versions/<buildVersion>/` folder
// and an atomically switched manifest with `contractsVersion`, so every URL of a rebuild is new
// and the shell's compatibility rule applies unchanged. Then it tells the shell at once
// (`POST /__khs-dev/remotes/<remote>/rebuilt` with this run's token): the shell loads the new build
// for its next render, without waiting for its 2 s poll, and the open pages swap the remote's
// islands in place (devProtocol.mjs). Other remotes may come from URLs the team sets (their
// registry variable, e.g. REMOTE_MF_WATCHLIST_URL): no origin, no build needed for those.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deploy } from '@khs/deploy';
import { DEV_EVENTS_PATH, DEV_LOOP_TOKEN_ENV, devRebuiltPath } from './devProtocol.mjs';
import { REMOTES, SHELL_DEFAULT_PORT } from './registry.mjs';
import { holdPort, REPO_ROOT, startStack } from './startStack.mjs';

/** Runs `npm run build -w <workspace>` with its output to `log`; rejects when it fails. */
function buildWorkspace(workspace, log) {
  return new Promise((resolve, reject) => {
    log(`[dev] ${workspace} is not built: npm run build -w ${workspace}`);
    const child = spawn('npm', ['run', 'build', '-w', workspace], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => log(String(chunk).trimEnd()));
    child.stderr.on('data', (chunk) => log(String(chunk).trimEnd()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build -w ${workspace} failed (exit ${code})`))));
  });
}

/**
 * The remotes the site takes from a URL the team set (their registry variable, e.g.
 * `REMOTE_MF_WATCHLIST_URL` = a staging origin's manifest), by name; `remote` (the one in watch
 * mode) never.
 * @param {string} remote
 * @param {Record<string, string | undefined>} env
 */
export function remotesFromEnvironment(remote, env) {
  return Object.fromEntries(
    REMOTES.filter((entry) => entry.name !== remote && env[entry.manifestEnv]?.trim()).map((entry) => [entry.name, env[entry.manifestEnv].trim()]),
  );
}

/**
 * Starts the dev site for `remote`; resolves once the shell listens with the remote's first dev build.
 * @param {import('./devSite.d.mts').DevSiteOptions} options
 * @returns {Promise<import('./devSite.d.mts').DevSite>}
 */
export async function startDevSite({ remote, env = process.env, log = (line) => console.log(line), onRebuilt }) {
  if (!REMOTES.some((entry) => entry.name === remote)) {
    throw new Error(`"${remote}" is no remote of the site (${REMOTES.map((entry) => entry.name).join(', ')}): run npm run dev -w <remote>`);
  }
  const remoteDir = path.join(REPO_ROOT, remote);
  const external = remotesFromEnvironment(remote, env);
  await buildWhatTheStackServes(remote, external, log);

  const workDir = mkdtempSync(path.join(os.tmpdir(), `khs-dev-${remote}-`));
  const buildDir = path.join(workDir, 'build');
  const originDir = path.join(workDir, 'origin');
  const token = randomBytes(24).toString('hex');
  const cleanups = [() => rmSync(workDir, { recursive: true, force: true })];
  const close = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };

  try {
    const compiler = await createDevCompiler(remoteDir, workDir, buildDir);
    const watcher = watchAndPublish({ ...compiler, remote, remoteDir, buildDir, originDir, token, log, onRebuilt });
    cleanups.push(() => watcher.close());

    log(`[dev] building ${remote} (browser and server, watch mode)…`);
    const firstVersion = await watcher.firstBuilt;
    log(`[dev] ${remote} ${firstVersion} built`);
    for (const [name, url] of Object.entries(external)) log(`[dev] ${name} from ${url} (${REMOTES.find((entry) => entry.name === name).manifestEnv})`);

    const stack = await startDevStack({ remote, env, external, originDir, token, log });
    cleanups.push(() => stack.close());
    const manifestUrl = `${stack.remotes[remote]}/mf-manifest.json`;
    log(`[dev] ${remote} served at ${manifestUrl}`);
    watcher.announceTo(stack.url);
    return { url: stack.url, remote, manifestUrl, stack, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Builds what npm start would have built: the other remotes the stack serves, the shell's client runtime. */
async function buildWhatTheStackServes(remote, external, log) {
  for (const entry of REMOTES) {
    if (entry.name !== remote && !external[entry.name] && !existsSync(path.join(REPO_ROOT, entry.name, 'dist', 'mf-manifest.json'))) await buildWorkspace(entry.name, log);
  }
  if (!existsSync(path.join(REPO_ROOT, 'shell', 'dist', 'client'))) await buildWorkspace('shell', log);
}

/** The remote's own rspack config and rspack, in dev mode: its compiler and the preset's `writeDevBuildVersion`. */
async function createDevCompiler(remoteDir, workDir, buildDir) {
  const requireFromRemote = createRequire(path.join(remoteDir, 'package.json'));
  const { rspack } = await import(pathToFileURL(requireFromRemote.resolve('@rspack/core')).href);
  const { writeDevBuildVersion } = await import(pathToFileURL(path.join(path.dirname(requireFromRemote.resolve('@khs/rspack-preset')), 'dev', 'devBuild.mjs')).href);
  const configOf = (await import(pathToFileURL(path.join(remoteDir, 'rspack.config.mjs')).href)).default;
  const configs = configOf({ khsDev: { outDir: buildDir, wrapperDir: path.join(workDir, 'exposes'), eventsPath: DEV_EVENTS_PATH } }, { mode: 'development' });
  return { compiler: rspack(configs), writeDevBuildVersion };
}

/**
 * Watches the remote; after each successful build: version, deploy to the dev origin, tell the shell
 * (one at a time). The first build resolves `firstBuilt`; the shell hears of rebuilds once
 * `announceTo(shellUrl)` names it.
 */
function watchAndPublish({ compiler, writeDevBuildVersion, remote, remoteDir, buildDir, originDir, token, log, onRebuilt }) {
  let shellUrl;
  let firstBuild;
  const firstBuilt = new Promise((resolve, reject) => (firstBuild = { resolve, reject }));
  let publishing = Promise.resolve();
  const publish = async (builtAt) => {
    const buildVersion = writeDevBuildVersion(remoteDir, buildDir);
    const deployed = await deploy({ from: buildDir, target: originDir });
    if (!shellUrl) return firstBuild.resolve(buildVersion);
    if (!deployed.changed) return;
    const pages = await noticeRebuild(shellUrl, remote, token);
    const notice = { event: 'rebuilt', remote, buildVersion, msSinceBuilt: Date.now() - builtAt, pages };
    log(JSON.stringify(notice));
    log(`[dev] ${remote} ${buildVersion} live: the shell renders with it, ${pages} open page(s) told`);
    onRebuilt?.(notice);
  };
  const watching = compiler.watch({ aggregateTimeout: 20 }, (error, stats) => {
    if (error || stats?.hasErrors()) {
      const report = error ? String(error.stack ?? error) : stats.toString({ all: false, errors: true, colors: false });
      log(`[dev] ${remote} build failed; the site keeps the last good build:\n${report}`);
      if (!shellUrl) firstBuild.reject(new Error(`the first dev build of ${remote} failed:\n${report}`));
      return;
    }
    const builtAt = Date.now();
    publishing = publishing.then(() => publish(builtAt)).catch((failure) => log(`[dev] ${remote}: ${failure?.message ?? failure}`));
  });
  return {
    firstBuilt,
    announceTo: (url) => {
      shellUrl = url;
    },
    // Bounded: a watcher that never reports its close must not keep the dev build's folder.
    close: () =>
      new Promise((resolve) => {
        watching.close(() => resolve());
        setTimeout(resolve, 5_000).unref();
      }),
  };
}

/** Tells the shell the remote was rebuilt (it reloads the remote before it answers); resolves with the open pages it told. */
async function noticeRebuild(shellUrl, remote, token) {
  const response = await fetch(new URL(devRebuiltPath(remote), shellUrl), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`the shell refused the rebuild notice: ${response.status} ${await response.text()}`);
  const { pages } = await response.json();
  return pages;
}

/** The site around the dev remote: its dev origin served like every remote's, the shell holding this run's token. */
async function startDevStack({ remote, env, external, originDir, token, log }) {
  // 4300 when free, else any: held from now on, so nothing takes it before the shell listens.
  const shellPort = env.PORT ? undefined : await holdPort(SHELL_DEFAULT_PORT).catch(() => holdPort(0));
  return startStack({
    dataDir: path.resolve(REPO_ROOT, env.DATA_DIR ?? path.join('.data-dev', remote)),
    remoteManifests: external,
    // Its own supervised origin process, as every remote's: the watcher's work never delays an answer.
    remoteOrigins: { [remote]: originDir },
    env,
    ...(shellPort ? { shellPort } : {}),
    // The shell alone: the token authorises the rebuild notice.
    shellEnv: { [DEV_LOOP_TOKEN_ENV]: token },
    log,
  });
}
