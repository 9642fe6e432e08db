// Several shells behind a real nginx (issue 27): a throwaway PostgreSQL database, the stack
// (remotes, search, team services, a first shell), a second shell on the same database, and
// nginx as a caching load balancer in front of both. Used by `tests/scale-out-nginx.spec.ts` and
// `scripts/bench-scale-out.ts`. Everything on loopback, everything in one temporary folder.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { REMOTES, TEAM_SERVICES } from '@khs/stack/registry';
import { E2E_PAGE_HEAD_BUDGET_MS, holdPort, REPO_ROOT, startStack, type HeldPort, type Stack } from './stack.js';

const run = promisify(execFile);

/** Debian's nginx binary (`apt-get install -y nginx`; `npm test` installs it when run as root). */
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const SCALE_OUT_OPERATOR_TOKEN = 'scale-out-operator-token-0123456789';
const COOKIE_SECRET = 'scale-out-cookie-secret-0123456789abcdef';
/** How often the shells poll the remotes' manifests here (the default is 2000 ms). */
export const SCALE_OUT_REVALIDATE_MS = 1000;

/** Why the scale-out setup cannot run here, or undefined when it can. */
export function scaleOutUnavailable(): string | undefined {
  if (!existsSync(NGINX_PATH)) return `nginx is missing (${NGINX_PATH}): install it with "apt-get install -y nginx" (npm test does so as root)`;
  return undefined;
}

export interface NginxOptions {
  /** Origins of the shells, e.g. `http://127.0.0.1:41234`. */
  upstreams: string[];
  /** Folder for the config, pid, logs, temp files and the cache. */
  dir: string;
  /** Its port, held since it was chosen (`holdPort()`); nginx inherits the socket and frees it when it stops. */
  port: HeldPort;
  /** `false`: the same proxy without its cache (a cold baseline). Default true. */
  cache?: boolean;
}

/**
 * nginx config of a caching load balancer: the shells as one upstream (round robin, the next one
 * on a refused connection or a 502/503/504), the page cache keyed on scheme, host and address
 * (the shells' `Cache-Control` decides what is kept and how long), stale answers while one
 * refreshes in the background or when the shells fail, revalidation by the pages' ETags, and
 * `X-Cache-Status`/`X-Upstream` headers to see what happened.
 */
export function nginxConfig(options: NginxOptions): string {
  const dir = options.dir;
  const cache = options.cache ?? true;
  // Started by root (the test command), the workers would drop to nobody, who cannot enter the
  // private temporary folder: they keep the starter's user instead.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy-temp;
  fastcgi_temp_path ${dir}/fastcgi-temp;
  uwsgi_temp_path ${dir}/uwsgi-temp;
  scgi_temp_path ${dir}/scgi-temp;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=khs_pages:10m max_size=256m inactive=10m use_temp_path=off;
  upstream khs_shells {
${options.upstreams.map((origin) => `    server ${new URL(origin).host} max_fails=1 fail_timeout=10s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${options.port.port};
    location / {
      proxy_pass http://khs_shells;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # The edge overwrites what a client claims: the shells trust loopback (TRUST_PROXY).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
${
  cache
    ? `      proxy_cache khs_pages;
      proxy_cache_key $scheme$host$request_uri;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
      proxy_cache_background_update on;
      proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;
      # A browser under a remote preview (its cookie: shell federation/preview/previewCookie.ts) never
      # gets a shared copy and never leaves one (its pages are private, no-store anyway).
      proxy_cache_bypass $cookie_khs_remote_preview;
      proxy_no_cache $cookie_khs_remote_preview;
`
    : ''
}      add_header X-Cache-Status $upstream_cache_status always;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground (`daemon off`) with a generated config; resolves once it answers.
 * nginx cannot listen on port 0, and a port picked free and bound later may be taken meanwhile: it
 * inherits the held port's listening socket instead (fd 3, named in the `NGINX` variable, nginx's own
 * way to hand sockets to a new binary), which its `listen` line matches.
 */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  mkdirSync(options.dir, { recursive: true });
  const configFile = path.join(options.dir, 'nginx.conf');
  writeFileSync(configFile, nginxConfig(options));
  const heldFd = options.port.fd();
  if (heldFd === undefined) throw new Error(`port ${options.port.port} is not held: hold it with holdPort() for nginx`);
  // -e: the error log before the config is read (else /var/log/nginx); -p: no path outside the folder.
  const child = spawn(NGINX_PATH, ['-c', configFile, '-p', options.dir, '-e', path.join(options.dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe', heldFd],
    env: { ...process.env, NGINX: '3;' },
  });
  // nginx has its copy of the socket (it accepts from the same queue once it runs): this process stops accepting.
  options.port.handedOver();
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const url = options.port.url;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      await fetch(`${url}/static/site.css`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer within 15 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, stop: () => stopChild(child, 'SIGQUIT').then(() => options.port.close()) };
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** A PostgreSQL database of its own: in `TEST_DATABASE_URL`'s server, else in a throwaway local cluster. */
async function throwawayDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  let baseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  let clusterDir: string | undefined;
  if (!baseUrl) {
    const { stdout } = await run('bash', [path.join(REPO_ROOT, 'tooling/local-postgres/start.sh')]);
    const lines = stdout.trim().split('\n');
    baseUrl = lines.at(-1)!.replace(/^DATABASE_URL=/, '');
    clusterDir = lines.find((line) => line.startsWith('PG_DIR='))?.slice('PG_DIR='.length);
  }
  const name = `khs_scale_out_${process.pid}_${Date.now().toString(36)}`;
  await run('psql', [baseUrl, '-qc', `CREATE DATABASE ${name}`]);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await run('psql', [baseUrl!, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]).catch(() => undefined);
      if (clusterDir) await run('bash', [path.join(REPO_ROOT, 'tooling/local-postgres/stop.sh'), clusterDir]).catch(() => undefined);
    },
  };
}

export interface RunningShell {
  url: string;
  /** Kills the shell at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts one more shell process with `env` (as the stack starts its own); resolves once it listens.
 * Node itself with tsx's loader, not the `tsx` command: that command runs the shell as its own
 * child, so a SIGKILL (which it cannot pass on) killed only the wrapper and left the shell serving.
 */
async function startShellProcess(env: NodeJS.ProcessEnv): Promise<RunningShell> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: path.join(REPO_ROOT, 'shell'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the second shell did not start within 60 s:\n${output.join('')}`)), 60_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (!line.startsWith('{')) return;
      try {
        const status = JSON.parse(line) as { event?: string; url?: string };
        if (status.event === 'listening' && status.url) {
          clearTimeout(timer);
          resolve(status.url);
        }
      } catch {
        // not a status line
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the second shell exited with ${code}:\n${output.join('')}`));
    });
  });
  return {
    url: url.replace(/\/$/, ''),
    kill: () => stopChild(child, 'SIGKILL'),
    stop: () => stopChild(child),
  };
}

export interface ScaleOut {
  stack: Stack;
  /** The shells' origins (no trailing slash): the stack's, then the second. */
  shells: [string, string];
  /** The nginx origin visitors use. */
  proxyUrl: string;
  /** The database both shells (and the team services) use. */
  databaseUrl: string;
  /** Kills the second shell (SIGKILL). */
  killSecondShell(): Promise<void>;
  /** Starts another nginx on the same shells (e.g. without its cache); stopped by `close()`. */
  startProxy(options: { cache: boolean }): Promise<string>;
  close(): Promise<void>;
}

/**
 * The site as several machines would run it: two shells on one PostgreSQL behind a caching nginx,
 * remotes served from deploy targets (so `npm run deploy -- --to <originDirs[remote]>` switches them).
 */
export async function startScaleOut(
  options: {
    log?: (line: string) => void;
    /** `CONTENT_DIR` of both shells and the services. Default: the checkout's articles. */
    contentDir?: string;
    /** More environment for both shells (e.g. the canary rule's minimums). Default none. */
    env?: Record<string, string>;
  } = {},
): Promise<ScaleOut> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'khs-scale-out-'));
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
    cleanups.length = 0;
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const database = await throwawayDatabase();
    cleanups.push(() => database.drop());
    // nginx's port is in PUBLIC_BASE_URL before anything starts: held until nginx inherits it.
    const proxyPort = await holdPort();
    cleanups.push(() => proxyPort.close());
    const proxyUrl = proxyPort.url;
    const shared = {
      DATABASE_URL: database.url,
      COOKIE_SECRET,
      OPERATOR_TOKEN: SCALE_OUT_OPERATOR_TOKEN,
      TRUST_PROXY: 'loopback',
      PUBLIC_BASE_URL: proxyUrl,
      REMOTE_REVALIDATE_MS: String(SCALE_OUT_REVALIDATE_MS),
      // The second shell too: whole pages whatever the machine's speed (stack.ts).
      PAGE_HEAD_BUDGET_MS: E2E_PAGE_HEAD_BUDGET_MS,
      ...(options.contentDir ? { CONTENT_DIR: options.contentDir } : {}),
      ...options.env,
    };
    const stack = await startStack({ env: shared, deployedOrigins: path.join(work, 'origins'), ...(options.log ? { log: options.log } : {}) });
    cleanups.push(() => stack.close());
    const search = new URL(stack.searchUrl);
    const second = await startShellProcess({
      ...process.env,
      // The secrets the stack generated (each team service's edge key, the search keys), as its own shell has them.
      ...(JSON.parse(readFileSync(stack.secretsFile, 'utf8')) as Record<string, string>),
      ...shared,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'production',
      DATA_DIR: path.join(work, 'second-shell'),
      TYPESENSE_HOST: search.hostname,
      TYPESENSE_PORT: search.port,
      TYPESENSE_PROTOCOL: search.protocol.replace(':', ''),
      TYPESENSE_SEARCH_API_KEY: 'khs-search-dev-key',
      ...Object.fromEntries(REMOTES.map((remote) => [remote.manifestEnv, `${stack.remotes[remote.name]}/mf-manifest.json`])),
      ...Object.fromEntries(TEAM_SERVICES.map((service) => [service.urlEnv, stack.serviceUrl(service.name)])),
    });
    cleanups.push(() => second.stop());
    const shells: [string, string] = [stack.url.replace(/\/$/, ''), second.url];
    const nginx = await startNginx({ upstreams: shells, dir: path.join(work, 'nginx'), port: proxyPort });
    cleanups.push(() => nginx.stop());
    let extra = 0;
    return {
      stack,
      shells,
      proxyUrl,
      databaseUrl: database.url,
      killSecondShell: () => second.kill(),
      async startProxy({ cache }) {
        const port = await holdPort();
        cleanups.push(() => port.close());
        const started = await startNginx({ upstreams: shells, dir: path.join(work, `nginx-${++extra}`), port, cache });
        cleanups.push(() => started.stop());
        return started.url;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
