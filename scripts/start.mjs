#!/usr/bin/env node
// `npm start`: builds every part, serves each remote from its own origin (as its CDN would),
// starts the shell with the embedded search server and SQLite, and prints the URL (and the base
// URL of sharing/PDF links: PUBLIC_BASE_URL when set, else the shell's own address).
// `npm start -- --no-build` skips the build.
import { spawn } from 'node:child_process';
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
if (!env.TYPESENSE_HOST) env.TYPESENSE_PORT ??= String(await portOrFree(8108));
env.DATA_DIR ??= path.join(ROOT, '.data');
// Production React on the server: the development build renders several times slower.
env.NODE_ENV ??= 'production';

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
  await Promise.all(servers.map((server) => server.close()));
  process.exit(code ?? 0);
});
