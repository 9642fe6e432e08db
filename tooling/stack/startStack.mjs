// The one stack starter: `npm start` (scripts/start.mjs) and the e2e harness (e2e/harness/stack.ts)
// both start the site through `startStack`, so the two cannot drift apart. It serves each remote's
// dist from its own origin (as its CDN would), starts the embedded search server as its own
// supervised process (unless TYPESENSE_HOST points at a real Typesense), each team service
// (registry TEAM_SERVICES) as its own process, then the shell pointed at all of them, and resolves
// once the shell reports `listening`. With `deployedOrigins` each remote's origin is a deploy target
// (tooling/deploy): its current build is deployed there first, and `npm run deploy` /
// `npm run rollback` switch what the running site loads.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { deploy } from '@khs/deploy';
import { serveDirectory } from '@khs/static-server';
import { defaultManifestUrl, REMOTES, searchPageOrigins, SERVICES, SHELL_DEFAULT_PORT, TEAM_SERVICES, teamService } from './registry.mjs';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const TSX_CLI = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const START_TIMEOUT_MS = 60_000;
const SEARCH = SERVICES.find((service) => service.name === 'search');

/** A free TCP port on `host`. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `preferred` when it is free on `host`, else any free port. */
export function portOrFree(preferred, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(freePort(host)));
    server.listen(preferred, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Follows a child's stdout: JSON status lines go to `onStatus`, anything else to `log` (when
 * given). stderr goes to `log` too, and is kept for the error message should the child not start.
 */
function follow(child, name, log, onStatus) {
  let output = '';
  const keep = (line) => {
    output = (output + line + '\n').slice(-8_000);
    log?.(line);
  };
  readline.createInterface({ input: child.stdout }).on('line', (text) => {
    if (text.startsWith('{')) {
      try {
        const status = JSON.parse(text);
        if (typeof status.event === 'string') return onStatus(status);
      } catch {
        // An ordinary line that starts with a brace.
      }
    }
    keep(text);
  });
  readline.createInterface({ input: child.stderr }).on('line', keep);
  return {
    failure: (why) => new Error(`${name} ${why}:\n${output}`),
  };
}

/** Resolves once `child` has exited (SIGKILL after 5 s without it). */
function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Compiles the search service (`search-engine/scripts/build-server.mjs`, ~0.5 s) so the run below
 * always starts the current sources, never a stale build (also with `npm start -- --no-build`).
 */
function buildSearchServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['search-engine/scripts/build-server.mjs'], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the search server build failed (exit ${code})`))));
  });
}

/**
 * Starts the compiled search supervisor (`search-engine/dist/supervise.js`, plain node: no
 * TypeScript loader in the supervisor, the server or its workers) and follows its `listening` lines
 * (one per (re)start).
 */
async function startSearchSupervisor(env, log) {
  await buildSearchServer();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['search-engine/dist/supervise.js'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let supervisor;
    let waiters = [];
    const followed = follow(child, 'the search server', log, (status) => {
      if (status.event !== 'listening') return;
      log?.(`[stack] search server (pid ${status.pid}) at ${status.url}${status.restarts ? `, restart ${status.restarts}` : ''}`);
      if (!supervisor) {
        clearTimeout(timer);
        supervisor = { child, port: status.port, pid: status.pid, nextStart: () => new Promise((next) => waiters.push(next)) };
        resolve(supervisor);
        return;
      }
      supervisor.pid = status.pid;
      const current = waiters;
      waiters = [];
      for (const next of current) next(status.pid);
    });
    const timer = setTimeout(() => reject(followed.failure(`did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!supervisor) reject(followed.failure(`exited with ${code}`));
    });
  });
}

/**
 * Starts one team service (registry `TEAM_SERVICES`) as its own process: node with tsx's loader on
 * the service's entry, from its slice folder — or from `sliceDir`, a changed copy of the slice
 * (a redeploy) — and resolves once it reports `listening`.
 * @param {import('./startStack.d.ts').TeamServiceName} name
 * @param {import('./startStack.d.ts').TeamServiceStartOptions} options
 * @returns {Promise<import('./startStack.d.ts').RunningTeamService>}
 */
export function startTeamService(name, options = {}) {
  const service = teamService(name);
  const sliceDir = options.sliceDir ?? path.join(REPO_ROOT, service.slice);
  const env = { ...process.env, HOST: '127.0.0.1', ...options.env, PORT: String(options.port ?? 0) };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(sliceDir, service.entry)], { cwd: sliceDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let started = false;
    const followed = follow(child, `the ${name} service`, options.log, (status) => {
      if (status.event !== 'listening' || started) return;
      started = true;
      clearTimeout(timer);
      options.log?.(`[stack] ${name} service (pid ${status.pid}) at ${status.url}`);
      resolve({ name, url: status.url, port: status.port, pid: child.pid, exited: new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', () => done()))), stop: () => stopProcess(child) });
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(followed.failure(`did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(followed.failure(`exited with ${code}`));
    });
  });
}

/** Starts the shell (from its own folder, so tsx compiles it with the shell's tsconfig). */
function startShell(env, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX_CLI, ['src/server/main.ts'], { cwd: path.join(REPO_ROOT, 'shell'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let started = false;
    const followed = follow(child, 'the shell', log, (status) => {
      if (status.event !== 'listening' || started) return;
      started = true;
      clearTimeout(timer);
      resolve({ child, status });
    });
    const timer = setTimeout(() => reject(followed.failure(`did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(followed.failure(`exited with ${code}`));
    });
  });
}

/** @param {import('./startStack.d.ts').StackOptions} options */
export async function startStack(options = {}) {
  const { log } = options;
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'khs-stack-'));
  const port = (preferred) => (options.preferDefaultPorts ? portOrFree(preferred) : 0);
  const cleanups = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) await step();
    cleanups.length = 0;
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const servers = new Map();
    const originDirs = new Map();
    for (const remote of REMOTES) {
      const dist = path.join(REPO_ROOT, remote.name, 'dist');
      if (!existsSync(dist)) throw new Error(`${remote.name} is not built (${dist}): run npm run build`);
      let dir = dist;
      if (options.deployedOrigins) {
        dir = path.join(options.deployedOrigins, remote.name);
        const deployed = await deploy({ from: dist, target: dir });
        log?.(`[stack] ${remote.name} ${deployed.version} ${deployed.changed ? `deployed to ${dir}` : `already live in ${dir}`}`);
      }
      const server = await serveDirectory({ dir, port: await port(remote.defaultPort) });
      cleanups.push(() => server.close());
      servers.set(remote.name, server);
      originDirs.set(remote.name, dir);
      log?.(`[stack] ${remote.name} served at ${server.url}/`);
    }

    const shellEnv = {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String((await port(SHELL_DEFAULT_PORT)) || (await freePort())), // known up front: the search server's allowed origins name it
      // Production React on the server: the development build renders several times slower.
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      ...Object.fromEntries(REMOTES.map((remote) => [remote.manifestEnv, defaultManifestUrl(remote, servers.get(remote.name).url)])),
      ...options.env,
    };

    let search;
    if (!shellEnv[SEARCH.hostEnv]) {
      search = await startSearchSupervisor(
        {
          ...shellEnv,
          ...options.searchEnv,
          SEARCH_HOST: '127.0.0.1',
          SEARCH_PORT: String(options.env?.[SEARCH.portEnv] ?? (await port(SEARCH.defaultPort))),
          SEARCH_DATA_DIR: path.join(dataDir, 'search'),
          SEARCH_ALLOWED_ORIGINS: shellEnv.SEARCH_ALLOWED_ORIGINS ?? searchPageOrigins({ shellPort: shellEnv.PORT, publicBaseUrl: shellEnv.PUBLIC_BASE_URL, remoteOrigins: [...servers.values()].map((server) => server.url) }).join(','),
        },
        log,
      );
      cleanups.push(() => stopProcess(search.child));
      shellEnv[SEARCH.hostEnv] = '127.0.0.1';
      shellEnv[SEARCH.portEnv] = String(search.port);
      shellEnv.TYPESENSE_PROTOCOL = 'http';
    }

    // Each team's service as its own process, on its own port, sharing the data folder (each keeps
    // its own file there) or DATABASE_URL (each its own schema) and the cookie secret with the shell.
    const teamServices = new Map();
    const launchService = async (service, sliceDir) => {
      const running = await startTeamService(service.name, {
        env: { ...shellEnv, ...options.serviceEnv },
        port: teamServicePorts.get(service.name),
        ...(sliceDir ? { sliceDir } : {}),
        log,
      });
      teamServicePorts.set(service.name, running.port);
      teamServices.set(service.name, running);
      return running;
    };
    const teamServicePorts = new Map();
    const ownServices = TEAM_SERVICES.filter((service) => !shellEnv[service.urlEnv]); // others run elsewhere
    for (const service of ownServices) teamServicePorts.set(service.name, await port(service.defaultPort));
    cleanups.push(async () => {
      await Promise.all([...teamServices.values()].map((running) => running.stop()));
    });
    // In parallel: each has its own port and its own storage.
    const started = await Promise.allSettled(ownServices.map((service) => launchService(service)));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    for (const service of ownServices) shellEnv[service.urlEnv] = teamServices.get(service.name).url;
    const runningService = (name) => {
      const running = teamServices.get(name);
      if (!running) throw new Error(`the ${name} service is external (${teamService(name).urlEnv}): the stack does not run it`);
      return running;
    };

    const shell = await startShell(shellEnv, log);
    cleanups.push(() => stopProcess(shell.child));
    const embeddedSearch = () => {
      if (!search) throw new Error('the search server is external (TYPESENSE_HOST): the stack does not run it');
      return search;
    };
    let closing;
    return {
      url: shell.status.url,
      remotes: Object.fromEntries([...servers].map(([name, server]) => [name, server.url])),
      originDirs: Object.fromEntries(originDirs),
      searchUrl: shell.status.searchUrl,
      baseUrl: shell.status.baseUrl,
      dataDir,
      shellExit: new Promise((resolve) => {
        if (shell.child.exitCode !== null) resolve(shell.child.exitCode);
        else shell.child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
      searchPid: () => embeddedSearch().pid,
      serviceUrl: (name) => runningService(name).url,
      servicePid: (name) => runningService(name).pid,
      async stopService(name) {
        await runningService(name).stop();
      },
      async startService(name, sliceDir) {
        const running = runningService(name);
        await running.stop();
        const restarted = await launchService(teamService(name), sliceDir);
        return { pid: restarted.pid, url: restarted.url };
      },
      serveRemote(name, dir) {
        servers.get(name).serve(dir ?? originDirs.get(name));
      },
      async stopSearch() {
        await stopProcess(embeddedSearch().child);
      },
      async killSearchServer() {
        const current = embeddedSearch();
        const killedAt = Date.now();
        const restarted = current.nextStart();
        process.kill(current.pid, 'SIGKILL');
        const pid = await restarted;
        return { pid, restartMs: Date.now() - killedAt };
      },
      close() {
        closing ??= cleanUp();
        return closing;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
