// The one stack starter: `npm start` (scripts/start.mjs) and the e2e harness (e2e/harness/stack.ts)
// both start the site through `startStack`, so the two cannot drift apart. Every part is its own
// process, run by the one supervisor (supervisor.mjs: restarted with back-off when it exits,
// replaced when its health check stops answering, ended when this process ends): a static origin
// per remote (tooling/static-server, serving its dist as its CDN would), the embedded search server
// (unless TYPESENSE_HOST points at a real Typesense; the stack is its one starter, the shell runs none), each team service (registry TEAM_SERVICES;
// the search slice's service, which fills the index, alone gets the search server's admin key),
// then the shell pointed at all of them; it resolves once the shell listens. With `deployedOrigins`
// each remote's origin is a deploy target (tooling/deploy): its current build is deployed there
// first, and `npm run deploy` / `npm run rollback` switch what the running site loads. Secrets not
// in the environment come from the data folder (secrets.mjs); each process gets only its own.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { deploy, keepLive } from '@khs/deploy';
import { SERVER_HEALTH_PATH, SERVER_MALLOC_ENV, SERVER_NODE_FLAGS, SERVER_STOP_TIMEOUT_MS } from '../../search-engine/server-process.mjs';
import { buildSearchServer as buildSearchServerIfStale } from '../../search-engine/scripts/build-server.mjs';
import { browserSettingsModule } from './browserSettings.mjs';
import { defaultManifestUrl, REMOTES, searchPageOrigins, SERVICES, SHELL_DEFAULT_PORT, SLICES, TEAM_SERVICES, teamService, withDeprecatedEnv } from './registry.mjs';
import { lockDataDir } from './dataDirLock.mjs';
import { holdPort, PortInUseError } from './heldPort.mjs';

export { holdPort, PortInUseError } from './heldPort.mjs';
import { loadStackSecrets, SECRET_NAMES } from './secrets.mjs';
import { serverBuild } from './serverBuild.mjs';
import { EXIT_WITH_PARENT, supervise } from './supervisor.mjs';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const SHELL_DIR = path.join(REPO_ROOT, 'shell');
/**
 * Node's compile cache for every part (`NODE_COMPILE_CACHE`): each module's compiled code, kept
 * across starts and stacks, keyed by its contents (a changed file is compiled afresh). Compiling
 * the same npm packages in each part at each start was a fifth of a part's start.
 */
const COMPILE_CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache/node-compile-cache');
const SHELL_ENTRY = 'src/server/main.ts';
const STATIC_SERVER_CLI = path.join(REPO_ROOT, 'tooling/static-server/cli.mjs');
const SEARCH_SERVER_ENTRY = path.join(REPO_ROOT, 'search-engine/dist/start.js');
const START_TIMEOUT_MS = 60_000;
const SEARCH = SERVICES.find((service) => service.name === 'search');
/** What the supervisor requests of each kind of part to know it still works (any HTTP answer will do). */
const HEALTH_PATHS = { origin: '/mf-manifest.json', search: SERVER_HEALTH_PATH, service: '/health', shell: '/health' };

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

/** Whether `port` is free on `host`. */
function isPortFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** `preferred` when it is free on `host`, else any free port. */
export async function portOrFree(preferred, host = '127.0.0.1') {
  return (await isPortFree(preferred, host)) ? preferred : freePort(host);
}

/** A start found a port it needs taken (another copy of the site, or anything else). */
export class PortTakenError extends Error {
  constructor(taken) {
    super(
      `Port${taken.length > 1 ? 's' : ''} taken: ${taken.map(({ port, part }) => `${port} (${part})`).join(', ')}. ` +
        'Is the site already running (another npm start)? Stop it, or free the port, and start again: a second copy on other ports would share the same data.',
    );
    this.name = 'PortTakenError';
    this.taken = taken;
  }
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
 * Compiles the search service (`search-engine/scripts/build-server.mjs`) unless its last build's
 * inputs are unchanged (`ifStale`), so the run below always starts the current sources, never a
 * stale build (also with `npm start -- --no-build`).
 */
async function buildSearchServer() {
  try {
    await buildSearchServerIfStale({ ifStale: true });
  } catch (error) {
    throw new Error(`the search server build failed: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * Runs one part under supervision on `port` (0: a free one, kept for every restart) and resolves
 * once it listens. `spec(port)` says how to run it on a port; restarts are logged.
 */
async function supervisePart({ name, port, spec, healthPath, log, timings, heldPort }) {
  const portOf = (status) => status.port ?? Number(new URL(status.url).port);
  const supervised = await supervise({
    name,
    ...spec(port),
    ...(heldPort ? { heldPort } : {}),
    healthUrl: (status) => `http://127.0.0.1:${portOf(status)}${healthPath}`,
    ...(log ? { log } : {}),
    timings: { startTimeoutMs: START_TIMEOUT_MS, ...timings },
  });
  const actualPort = portOf(supervised.status());
  // Every restart on the same port: the shell and the other parts know it by that.
  supervised.update(spec(actualPort));
  const announce = () =>
    void supervised.nextStart().then((next) => {
      log?.(`[stack] ${name} (pid ${next.pid}) listening again on port ${actualPort}, restart ${next.restarts}`);
      announce();
    });
  announce();
  return { supervised, port: actualPort, url: `http://127.0.0.1:${actualPort}` };
}

/**
 * Starts one team service (registry `TEAM_SERVICES`) as its own process, not supervised (tests that
 * run instances next to their own shell): node on the service's entry built (`serverBuild.mjs`), from
 * its slice folder — or from `sliceDir`, a changed copy of the slice (a redeploy) — and resolves once
 * it reports `listening`. It ends with this process (the supervisor's EXIT_WITH_PARENT preload).
 * @param {import('./startStack.d.ts').TeamServiceName} name
 * @param {import('./startStack.d.ts').TeamServiceStartOptions} options
 * @returns {Promise<import('./startStack.d.ts').RunningTeamService>}
 */
export async function startTeamService(name, options = {}) {
  const service = teamService(name);
  const sliceDir = options.sliceDir ?? path.join(REPO_ROOT, service.slice);
  const env = { ...process.env, HOST: '127.0.0.1', ...options.env, PORT: String(options.port ?? 0) };
  const { file } = await serverBuild({ dir: sliceDir, entry: service.entry });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, file], {
      cwd: sliceDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.channel?.unref();
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

/**
 * The secrets the shell gets: its cookie secret, the search-only key browsers get, each team
 * service's edge key to send it — every one of `secrets` but the search server's admin key
 * (`TYPESENSE_API_KEY`: the search slice's service alone writes the index) and the editor token
 * (`EDITOR_TOKEN`: the service of the editors' pages alone checks it; the shell only forwards it).
 * @param {Record<string, string>} secrets
 */
export function shellSecrets(secrets) {
  const { TYPESENSE_API_KEY: _adminKey, EDITOR_TOKEN: _editorToken, ...rest } = secrets;
  return rest;
}

/** `env` without any of the stack's secrets: no process inherits one it was not given. */
function withoutSecrets(env) {
  const copy = { ...env };
  for (const name of SECRET_NAMES) delete copy[name];
  return copy;
}

/**
 * The whole environment of a team service the stack runs: the caller's environment and
 * `serviceEnv` without any secret, loopback, its port and data folder, and its own edge key — not
 * the shell's cookie secret, not another service's key. The service that writes the search index
 * (registry `writesSearchIndex`) also gets where the search server is (`searchTarget`:
 * TYPESENSE_HOST/PORT/PROTOCOL) and its admin key (`TYPESENSE_API_KEY`); no other service does.
 * @param {import('./registry.d.ts').TeamServiceEntry} service
 * @param {{ env: Record<string, string | undefined>, serviceEnv?: Record<string, string>, secrets: Record<string, string>, port: number, dataDir: string, searchTarget?: Record<string, string> }} parts
 */
export function teamServiceEnvironment(service, { env, serviceEnv = {}, secrets, port, dataDir, searchTarget = {} }) {
  return {
    ...withoutSecrets(env),
    ...withoutSecrets(serviceEnv),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    [service.edgeKeyEnv]: secrets[service.edgeKeyEnv],
    ...(service.writesSearchIndex && secrets.TYPESENSE_API_KEY ? { ...searchTarget, TYPESENSE_API_KEY: secrets.TYPESENSE_API_KEY } : {}),
    ...(service.readsEditorToken && secrets.EDITOR_TOKEN ? { EDITOR_TOKEN: secrets.EDITOR_TOKEN } : {}),
  };
}

/**
 * Which secrets this stack generates, loaded from (or written to) the data folder, logged by name.
 * Only the secrets of parts this stack runs are generated: a real Typesense's keys and an external
 * service's edge key are its operator's, taken from the environment as they are.
 * @returns {{ file: string, values: Record<string, string>, all: Record<string, string> }} `values`:
 *   the loaded ones; `all`: every secret the environment sets, under the loaded ones.
 */
function stackSecrets({ dataDir, given, embeddedSearch, ownServices, log }) {
  const owned = SECRET_NAMES.filter(
    (name) =>
      (embeddedSearch || !name.startsWith('TYPESENSE_')) &&
      !TEAM_SERVICES.some((service) => service.edgeKeyEnv === name && !ownServices.includes(service)),
  );
  const secrets = loadStackSecrets(dataDir, given, owned);
  const givenSecrets = Object.fromEntries(SECRET_NAMES.filter((name) => given[name]?.trim()).map((name) => [name, given[name].trim()]));
  log?.(
    `[stack] secrets in ${secrets.file} (mode 0600)` +
      (secrets.generated.length > 0 ? `; generated now: ${secrets.generated.join(', ')}` : '') +
      (secrets.fromEnv.length > 0 ? `; from the environment: ${secrets.fromEnv.join(', ')}` : ''),
  );
  return { file: secrets.file, values: secrets.values, all: { ...givenSecrets, ...secrets.values } };
}

/**
 * Each part's port, by key (a remote's name, `search`, a service's name, `shell`): its registry
 * default for `npm start` (all checked before anything starts: a taken one stops the start with a
 * `PortTakenError`), else 0 (a free one, picked by the part itself and kept). The shell's is always
 * known up front, even on free ports (the search server's allowed origins name it), so it is held
 * from now on (`heldPort`: listening, 503 until the shell listens on that very socket): no other
 * process can take it meanwhile, and nothing that connects to it early can stop the start.
 * @returns {Promise<{ ports: Map<string, number>, shellPort: import('./heldPort.d.mts').HeldPort }>}
 */
async function choosePorts({ options, given, embeddedSearch, servedRemotes, ownServices }) {
  const ports = new Map();
  const byDefault = (port) => port + (options.portOffset ?? 0);
  const wanted = [
    ...servedRemotes.map((remote) => [remote.name, `the ${remote.name} origin`, byDefault(remote.defaultPort)]),
    ...(embeddedSearch ? [['search', 'the search server', given[SEARCH.portEnv] ? Number(given[SEARCH.portEnv]) : byDefault(SEARCH.defaultPort)]] : []),
    ...ownServices.map((service) => [service.name, `the ${service.name} service`, byDefault(service.defaultPort)]),
    // A port the caller holds for the shell already is its own.
    ...(options.shellPort ? [] : [['shell', 'the shell', given.PORT ? Number(given.PORT) : byDefault(SHELL_DEFAULT_PORT)]]),
  ];
  if (options.preferDefaultPorts) {
    const taken = [];
    for (const [key, part, port] of wanted) {
      if (port !== 0 && !(await isPortFree(port))) taken.push({ port, part });
      ports.set(key, port);
    }
    if (taken.length > 0) throw new PortTakenError(taken);
  } else {
    for (const [key] of wanted) ports.set(key, 0);
    if (options.env?.PORT && !options.shellPort) ports.set('shell', Number(options.env.PORT));
    if (embeddedSearch && options.env?.[SEARCH.portEnv]) ports.set('search', Number(options.env[SEARCH.portEnv]));
  }
  let shellPort = options.shellPort;
  if (!shellPort) {
    try {
      shellPort = await holdPort(ports.get('shell'));
    } catch (error) {
      if (error instanceof PortInUseError) throw new PortTakenError([{ port: error.port, part: 'the shell' }]);
      throw error;
    }
  }
  ports.set('shell', shellPort.port);
  return { ports, shellPort };
}

/**
 * The folder each served remote's origin serves, by name: a folder someone else keeps deployed
 * (`remoteOrigins`, the dev starter's dev origin) as it is, else its `dist` — or, with
 * `deployedOrigins`, its deploy target there, the current `dist` deployed to it first.
 */
async function resolveOriginDirs({ servedRemotes, options, log }) {
  const originDirs = new Map();
  for (const remote of servedRemotes) {
    const keptElsewhere = options.remoteOrigins?.[remote.name];
    if (keptElsewhere) {
      originDirs.set(remote.name, keptElsewhere);
      continue;
    }
    const dist = path.join(REPO_ROOT, remote.name, 'dist');
    if (!existsSync(dist) && !(options.deployedOrigins && options.keepLive)) throw new Error(`${remote.name} is not built (${dist}): run npm run build`);
    let dir = dist;
    if (options.deployedOrigins) {
      dir = path.join(options.deployedOrigins, remote.name);
      const deployed = await (options.keepLive ? keepLive : deploy)({ from: dist, target: dir });
      log?.(`[stack] ${remote.name} ${deployed.version} ${deployed.changed ? `deployed to ${dir}` : `already live in ${dir}`}`);
      if (deployed.skipped) log?.(`[stack] ${remote.name}: ${dist} holds ${deployed.skipped}, not deployed (--no-build serves what is live; npm run deploy -w ${remote.name} deploys it)`);
    }
    originDirs.set(remote.name, dir);
  }
  return originDirs;
}

/**
 * Each remote's origin, as its CDN would serve it, all at once under supervision.
 * @returns {Promise<{ origins: Map<string, Awaited<ReturnType<typeof supervisePart>>>, serveRemote: (name: string, dir?: string) => void }>}
 *   `serveRemote` points an origin at another folder (its own, from `originDirs`, when omitted).
 */
async function startOrigins({ servedRemotes, ports, originDirs, baseEnv, log, cleanups, phase }) {
  const origins = new Map();
  // What each origin serves now (`serveRemote` swaps it).
  const servedDirs = new Map(originDirs);
  const originSpec = (name) => (port) => ({ args: [STATIC_SERVER_CLI, servedDirs.get(name), String(port)], env: baseEnv, cwd: REPO_ROOT });
  await allStarted(
    servedRemotes.map(async (remote) => {
      const origin = await phase(`origin ${remote.name}`, () => supervisePart({ name: `the ${remote.name} origin`, port: ports.get(remote.name), spec: originSpec(remote.name), healthPath: HEALTH_PATHS.origin, log }));
      cleanups.push(() => origin.supervised.close());
      origins.set(remote.name, origin);
      log?.(`[stack] ${remote.name} served at ${origin.url}/ (pid ${origin.supervised.pid()})`);
    }),
  );
  const serveRemote = (name, dir) => {
    const origin = origins.get(name);
    servedDirs.set(name, dir ?? originDirs.get(name));
    // The running origin switches at once; a restarted one starts on the new folder too.
    origin.supervised.update(originSpec(name)(origin.port));
    origin.supervised.send({ type: 'serve', dir: servedDirs.get(name) });
  };
  return { origins, serveRemote };
}

/** Waits for every start to settle (none is left half-way), then throws the first failure if any; else their values. */
async function allStarted(starts) {
  const results = await Promise.allSettled(starts);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return results.map((result) => result.value);
}

/** Where a real Typesense is (`TYPESENSE_HOST`…, as the environment gives it), for the shell and the search slice's indexer. */
function externalSearchTarget(given) {
  return Object.fromEntries(['TYPESENSE_HOST', 'TYPESENSE_PORT', 'TYPESENSE_PROTOCOL', 'TYPESENSE_NODES', 'TYPESENSE_NEAREST_NODE'].filter((name) => given[name]).map((name) => [name, given[name]]));
}

/**
 * Builds and starts the embedded search server under supervision, with its keys, its data folder
 * and the browser origins allowed to search (the site's pages and the remotes' standalone pages).
 * @returns {Promise<{ search: Awaited<ReturnType<typeof supervisePart>>, searchTarget: Record<string, string> }>}
 *   `searchTarget`: where it listens, as TYPESENSE_HOST/PORT/PROTOCOL.
 */
async function startEmbeddedSearch({ searchBuilt, ports, origins, remoteManifests, given, baseEnv, secrets, dataDir, options, log, cleanups }) {
  await searchBuilt;
  const searchDataDir = path.join(dataDir, 'search');
  const allowedOrigins =
    given.SEARCH_ALLOWED_ORIGINS ??
    searchPageOrigins({
      shellPort: String(ports.get('shell')),
      publicBaseUrl: given.PUBLIC_BASE_URL,
      remoteOrigins: [...[...origins.values()].map((origin) => origin.url), ...Object.values(remoteManifests)],
    }).join(',');
  const search = await supervisePart({
    name: 'the search server',
    port: ports.get('search'),
    spec: (port) => ({
      nodeArgs: [...SERVER_NODE_FLAGS],
      args: [SEARCH_SERVER_ENTRY],
      cwd: REPO_ROOT,
      env: {
        ...SERVER_MALLOC_ENV,
        ...baseEnv,
        ...options.searchEnv,
        SEARCH_HOST: '127.0.0.1',
        SEARCH_PORT: String(port),
        SEARCH_DATA_DIR: searchDataDir,
        TYPESENSE_API_KEY: secrets.values.TYPESENSE_API_KEY,
        TYPESENSE_SEARCH_API_KEY: secrets.values.TYPESENSE_SEARCH_API_KEY,
        SEARCH_ALLOWED_ORIGINS: allowedOrigins,
        // The site's pages get only the search-only key: the admin key is refused from every page (search-engine README, "Security").
        SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES: 'true',
      },
    }),
    healthPath: HEALTH_PATHS.search,
    timings: {
      stopTimeoutMs: SERVER_STOP_TIMEOUT_MS,
      // A test may hold the server down longer to look at the site meanwhile (search-engine README).
      ...(options.searchEnv?.SEARCH_RESTART_BACKOFF_MS ? { initialBackoffMs: Number(options.searchEnv.SEARCH_RESTART_BACKOFF_MS) } : {}),
    },
    log,
  });
  cleanups.push(() => search.supervised.close());
  log?.(`[stack] search server (pid ${search.supervised.pid()}) at ${search.url}`);
  return { search, searchTarget: { [SEARCH.hostEnv]: '127.0.0.1', [SEARCH.portEnv]: String(search.port), TYPESENSE_PROTOCOL: 'http' } };
}

/**
 * Each team's service as its own process, on its own port, in parallel, sharing the data folder
 * (each keeps its own file there) or DATABASE_URL (each its own schema). It gets its own edge key
 * and no other secret: not the shell's cookie secret, not another service's key. It runs built
 * (`serverBuild.mjs`: its sources bundled to one JavaScript file, rebuilt when one changed). Only
 * the service that writes the search index waits for the search server (`searchTarget`, a promise
 * of where it listens); the others start at once, beside the origins and the search server.
 * @returns {Promise<{ running: Map<string, Awaited<ReturnType<typeof supervisePart>>>, launch: (service: object, sliceDir?: string) => Promise<Awaited<ReturnType<typeof supervisePart>>> }>}
 *   `launch` (re)starts one on the port it had (from `sliceDir`, a changed copy of its slice, when given).
 */
async function startTeamServices({ ownServices, ports, baseEnv, secrets, dataDir, searchTarget: searchTargetStarted, options, log, cleanups, phase }) {
  const running = new Map();
  const servicePorts = new Map();
  const launch = async (service, sliceDir) => {
    const dir = sliceDir ?? path.join(REPO_ROOT, service.slice);
    const [{ file }, searchTarget] = await Promise.all([serverBuild({ dir, entry: service.entry }), service.writesSearchIndex ? searchTargetStarted : {}]);
    const started = await supervisePart({
      name: `the ${service.name} service`,
      port: servicePorts.get(service.name) ?? ports.get(service.name),
      spec: (port) => ({
        args: [file],
        cwd: dir,
        env: teamServiceEnvironment(service, { env: baseEnv, serviceEnv: options.serviceEnv, secrets: secrets.all, port, dataDir, searchTarget }),
      }),
      healthPath: HEALTH_PATHS.service,
      log,
    });
    servicePorts.set(service.name, started.port);
    running.set(service.name, started);
    log?.(`[stack] ${service.name} service (pid ${started.supervised.pid()}) at ${started.url}`);
    return started;
  };
  // Closes whichever process each service runs at the end, a restarted one included.
  cleanups.push(async () => {
    await Promise.all([...running.values()].map((service) => service.supervised.close()));
  });
  await allStarted(ownServices.map((service) => phase(`service ${service.name}`, () => launch(service))));
  return { running, launch };
}

/**
 * The shell's environment: the stack's base, the remotes' manifest URLs, the caller's `env` without
 * secrets, the shell's own secrets, `shellEnv`, then where the embedded search server and the stack's
 * team services listen.
 */
function shellEnvironment({ baseEnv, dataDir, origins, remoteManifests, options, secrets, embeddedSearchTarget, ownServices, teamServices }) {
  return {
    ...baseEnv,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...Object.fromEntries(REMOTES.map((remote) => [remote.manifestEnv, remoteManifests[remote.name] ?? defaultManifestUrl(remote, origins.get(remote.name).url)])),
    ...withoutSecrets(options.env ?? {}),
    ...shellSecrets(secrets.all),
    ...options.shellEnv,
    ...embeddedSearchTarget,
    ...Object.fromEntries(ownServices.map((service) => [service.urlEnv, teamServices.running.get(service.name).url])),
  };
}

/**
 * Starts the shell under supervision, built (`serverBuild.mjs`, with the shell's tsconfig), from its own folder.
 * @returns {Promise<{ shell: Awaited<ReturnType<typeof supervisePart>>, shellExit: Promise<number> }>}
 *   `shellExit` resolves (0) once the stack has closed it.
 */
async function startShell({ shellBuilt, heldPort, shellEnv, log, cleanups }) {
  const { file, nodeArgs } = await shellBuilt;
  const shell = await supervisePart({
    name: 'the shell',
    port: heldPort.port,
    // Every start of the shell listens on the held socket (LISTEN_FD), so its port is never free.
    heldPort,
    spec: (shellPort) => ({ nodeArgs, args: [file], cwd: SHELL_DIR, env: { ...shellEnv, PORT: String(shellPort) } }),
    healthPath: HEALTH_PATHS.shell,
    log,
  });
  let shellClosed;
  const shellExit = new Promise((resolve) => (shellClosed = resolve));
  cleanups.push(async () => {
    await shell.supervised.close();
    shellClosed(0);
  });
  return { shell, shellExit };
}

/**
 * The handle `startStack` resolves with (`Stack` in startStack.d.ts) over the parts it started.
 * `search` is undefined when the search server is external (`searchTarget` says where).
 */
function stackHandle({ shell, shellExit, origins, originDirs, serveRemote, search, searchTarget, teamServices, dataDir, secretsFile, cleanUp }) {
  const shellStatus = shell.supervised.status();
  const embedded = () => {
    if (!search) throw new Error('the search server is external (TYPESENSE_HOST): the stack does not run it');
    return search;
  };
  const runningService = (name) => {
    const running = teamServices.running.get(name);
    if (!running) throw new Error(`the ${name} service is external (${teamService(name).urlEnv}): the stack does not run it`);
    return running;
  };
  let closing;
  return {
    url: shellStatus.url,
    remotes: Object.fromEntries([...origins].map(([name, origin]) => [name, origin.url])),
    originDirs: Object.fromEntries(originDirs),
    searchUrl: search ? search.url : `${searchTarget.TYPESENSE_PROTOCOL ?? 'http'}://${searchTarget[SEARCH.hostEnv]}:${searchTarget[SEARCH.portEnv] ?? SEARCH.defaultPort}`,
    baseUrl: shellStatus.baseUrl,
    dataDir,
    secretsFile,
    shellExit,
    pids() {
      return {
        shell: shell.supervised.pid(),
        ...(search ? { search: search.supervised.pid() } : {}),
        ...Object.fromEntries([...origins].map(([name, origin]) => [name, origin.supervised.pid()])),
        ...Object.fromEntries([...teamServices.running].map(([name, running]) => [name, running.supervised.pid()])),
      };
    },
    shellPid: () => shell.supervised.pid(),
    originPid: (name) => origins.get(name).supervised.pid(),
    searchPid: () => embedded().supervised.pid(),
    serviceUrl: (name) => runningService(name).url,
    servicePid: (name) => runningService(name).supervised.pid(),
    nextStart(part) {
      const supervised =
        part === 'shell' ? shell.supervised : part === 'search' ? embedded().supervised : origins.get(part)?.supervised ?? runningService(part).supervised;
      return supervised.nextStart().then((status) => status.pid);
    },
    async stopService(name) {
      await runningService(name).supervised.close();
    },
    async startService(name, sliceDir) {
      await runningService(name).supervised.close();
      const restarted = await teamServices.launch(teamService(name), sliceDir);
      return { pid: restarted.supervised.pid(), url: restarted.url };
    },
    serveRemote,
    async stopSearch() {
      await embedded().supervised.close();
    },
    async killSearchServer() {
      const current = embedded().supervised;
      const killedAt = Date.now();
      const restarted = current.nextStart();
      process.kill(current.pid(), 'SIGKILL');
      const { pid } = await restarted;
      return { pid, restartMs: Date.now() - killedAt };
    },
    close() {
      closing ??= cleanUp();
      return closing;
    },
  };
}

/**
 * `phase(name, step)`: runs `step` and tells `onPhase` (when given) how long it took and when it
 * began, counted from the start (`measureStart.mjs` prints them).
 */
function phaseTimer(onPhase) {
  const startedAt = performance.now();
  return async (name, step) => {
    const began = performance.now();
    const result = await step();
    onPhase?.({ name, ms: performance.now() - began, startMs: began - startedAt });
    return result;
  };
}

/** @param {import('./startStack.d.ts').StackOptions} options */
export async function startStack(options = {}) {
  const { log } = options;
  const phase = phaseTimer(options.onPhase);
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'khs-stack-'));
  // One site per data folder, whatever its ports (a second one would share every SQLite file).
  const lock = lockDataDir(dataDir);
  const cleanups = [];
  // Every part at once: each supervisor stops restarting the moment its close() is called, so a
  // Ctrl-C (which reaches the children too) never sees one restarted while another is awaited.
  const cleanUp = async () => {
    await Promise.all(cleanups.splice(0).map((step) => step()));
    lock.release();
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // Former variable names a slice manifest still accepts (for one version) count under their new names.
    const given = withDeprecatedEnv({ ...process.env, ...options.env });
    const embeddedSearch = !given[SEARCH.hostEnv];
    const ownServices = TEAM_SERVICES.filter((service) => !given[service.urlEnv]); // others run elsewhere
    // Remotes served elsewhere (a dev origin, a shared staging site): no origin of ours, no build needed.
    const remoteManifests = options.remoteManifests ?? {};
    const servedRemotes = REMOTES.filter((remote) => !remoteManifests[remote.name]);
    const secrets = stackSecrets({ dataDir, given, embeddedSearch, ownServices, log });
    // What every process starts from: the caller's environment without any secret; production React
    // on the server (the development build renders several times slower); V8's compiled code of
    // every module kept on disk across starts (NODE_COMPILE_CACHE, unless the caller set one).
    const baseEnv = { NODE_COMPILE_CACHE: COMPILE_CACHE_DIR, ...withoutSecrets(given), NODE_ENV: 'production' };
    const { ports, shellPort } = await phase('choosePorts', () => choosePorts({ options, given, embeddedSearch, servedRemotes, ownServices }));
    // Held from now on (the shell's supervisor takes it over and frees it at the end); freed here
    // too should the start fail before.
    cleanups.push(() => shellPort.close());
    // What depends on nothing else starts at once: every server build, the origins, each team
    // service but the one that fills the search index; then the search server (its allowed origins
    // name the origins' ports), that service (the search server's address), the shell (everyone's).
    // Every start settles before a failure is thrown, so the clean-up finds every part started.
    // The shell imports each slice's browser-settings module by its path at start (browserSettings.mjs): built too.
    const shellBuilt = phase('build shell', () => serverBuild({ dir: SHELL_DIR, entry: SHELL_ENTRY, runtimeImports: SLICES.map((slice) => browserSettingsModule(slice)).filter(Boolean) }));
    shellBuilt.catch(() => {});
    const searchBuilt = embeddedSearch ? phase('build search server', () => buildSearchServer()) : undefined;
    const originsStarted = phase('resolveOriginDirs', () => resolveOriginDirs({ servedRemotes, options, log })).then(async (originDirs) => ({
      originDirs,
      ...(await phase('startOrigins', () => startOrigins({ servedRemotes, ports, originDirs, baseEnv, log, cleanups, phase }))),
    }));
    const searchStarted = embeddedSearch
      ? originsStarted.then(({ origins }) => phase('startEmbeddedSearch', () => startEmbeddedSearch({ searchBuilt, ports, origins, remoteManifests, given, baseEnv, secrets, dataDir, options, log, cleanups })))
      : Promise.resolve({ search: undefined, searchTarget: externalSearchTarget(given) });
    const searchTargetKnown = searchStarted.then((started) => started.searchTarget);
    // Its failure is the search server's, thrown below: not an unhandled rejection when no service waits for it.
    searchTargetKnown.catch(() => {});
    const servicesStarted = phase('startTeamServices', () => startTeamServices({ ownServices, ports, baseEnv, secrets, dataDir, searchTarget: searchTargetKnown, options, log, cleanups, phase }));
    const [{ originDirs, origins, serveRemote }, { search, searchTarget }, teamServices] = await allStarted([originsStarted, searchStarted, servicesStarted, ...(searchBuilt ? [searchBuilt] : [])]);
    // An external search server's address is in `given` already; only the embedded one's is added.
    const embeddedSearchTarget = search ? searchTarget : {};
    const shellEnv = shellEnvironment({ baseEnv, dataDir, origins, remoteManifests, options, secrets, embeddedSearchTarget, ownServices, teamServices });
    const { shell, shellExit } = await phase('startShell', () => startShell({ shellBuilt, heldPort: shellPort, shellEnv, log, cleanups }));
    return stackHandle({ shell, shellExit, origins, originDirs, serveRemote, search, searchTarget, teamServices, dataDir, secretsFile: secrets.file, cleanUp });
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
