#!/usr/bin/env node
// Usage: khs-serve-dist <dir> [port] [host]  — serves a remote's build like its CDN would.
// Prints one JSON line `{"event":"listening","url","port","pid"}` first (the stack's supervisor reads
// it), then a human one. Run by the stack's supervisor, it also takes `{ "type": "serve", "dir" }`
// messages on its IPC channel: serve another folder from now on (a redeploy, `serveRemote`).
import path from 'node:path';
import { startProcessLogs, startProcessMetrics } from '@khs/observability';
import { serveDirectory } from './index.mjs';

const [dir = 'dist', port = '0', host = '127.0.0.1'] = process.argv.slice(2);
// This origin's part: the remote whose folder it serves (`.origins/mf-x`, or `mf-x/dist`).
const served = path.resolve(dir);
const part = `origin:${path.basename(served) === 'dist' ? path.basename(path.dirname(served)) : path.basename(served)}`;
startProcessLogs(part);
startProcessMetrics(part);
let server;
try {
  server = await serveDirectory({ dir: path.resolve(dir), port: Number(port), host });
} catch (error) {
  console.error(`khs-serve-dist: cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
console.log(JSON.stringify({ event: 'listening', url: server.url, port: server.port, pid: process.pid }));
console.log(`serving ${dir} at ${server.url}/`);

process.on('message', (message) => {
  if (message && message.type === 'serve' && typeof message.dir === 'string') server.serve(message.dir);
});
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
