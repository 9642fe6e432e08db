#!/usr/bin/env node
// `npm start`: builds every part, serves each remote from its own origin (as its CDN would),
// starts the embedded search server as its own supervised process (unless TYPESENSE_HOST points
// at a real Typesense), then the shell (with SQLite) pointed at it, and prints the URL (and the base
// URL of sharing/PDF links: PUBLIC_BASE_URL when set, else the shell's own address).
// `npm start -- --no-build` skips the build.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { serveDirectory } from '@khs/static-server';
import { REMOTES, ROOT, portOrFree, run } from './lib.mjs';

if (!process.argv.includes('--no-build')) {
  const code = await run('npm', ['run', 'build']);
  if (code !== 0) process.exit(code);
}

const env = { ...process.env };
const servers = [];
for (const remote of REMOTES) {
  const port = await portOrFree(remote.port);
  const server = await serveDirectory({ dir: path.join(ROOT, remote.name, 'dist'), port });
  servers.push(server);
  env[`REMOTE_${remote.name.replace('-', '_').toUpperCase()}_URL`] ??= `${server.url}/mf-manifest.json`;
  console.log(`[start] ${remote.name} served at ${server.url}/`);
}
env.PORT ??= String(await portOrFree(4300));
env.DATA_DIR ??= path.join(ROOT, '.data');
// Production React on the server: the development build renders several times slower.
env.NODE_ENV ??= 'production';

/** Starts the search supervisor and resolves with its first `listening` status line. */
function startSearchSupervisor() {
  return new Promise((resolve, reject) => {
    // node with tsx's loader directly: no extra tsx CLI process kept around for the whole run.
    const tsxLoader = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsxLoader, 'search-engine/src/cli/supervise.ts'], {
      cwd: ROOT,
      env: { ...env, SEARCH_HOST: '127.0.0.1', SEARCH_PORT: env.TYPESENSE_PORT, SEARCH_DATA_DIR: path.join(env.DATA_DIR, 'search') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let started = false;
    child.once('exit', (code) => {
      if (!started) reject(new Error(`the search server did not start (exit ${code})`));
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{')) {
        try {
          const status = JSON.parse(line);
          if (status.event === 'listening') {
            console.log(`[start] search server (pid ${status.pid}) at ${status.url}${status.restarts ? `, restart ${status.restarts}` : ''}`);
            if (!started) {
              started = true;
              resolve({ child, port: status.port });
            }
            return;
          }
        } catch {
          // An ordinary log line.
        }
      }
      console.log(line);
    });
  });
}

let search;
if (!env.TYPESENSE_HOST) {
  env.TYPESENSE_PORT ??= String(await portOrFree(8108));
  search = await startSearchSupervisor();
  env.TYPESENSE_HOST = '127.0.0.1';
  env.TYPESENSE_PORT = String(search.port);
  env.TYPESENSE_PROTOCOL = 'http';
}

// The shell runs from its own folder so tsx compiles it with the shell's tsconfig.
const shell = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
  cwd: path.join(ROOT, 'shell'),
  env,
  stdio: 'inherit',
});
const stop = () => shell.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
shell.on('exit', async (code) => {
  if (search && search.child.exitCode === null) {
    await new Promise((resolve) => {
      search.child.once('exit', resolve);
      search.child.kill('SIGTERM');
    });
  }
  await Promise.all(servers.map((server) => server.close()));
  process.exit(code ?? 0);
});
