#!/usr/bin/env node
// Usage: khs-serve-dist <dir> [port]  — serves a remote's build like its CDN would.
import path from 'node:path';
import { serveDirectory } from './index.mjs';

const [dir = 'dist', port = '0'] = process.argv.slice(2);
const server = await serveDirectory({ dir: path.resolve(dir), port: Number(port) });
console.log(`serving ${dir} at ${server.url}/`);
