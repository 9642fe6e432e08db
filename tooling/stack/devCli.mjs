#!/usr/bin/env node
// `npm run dev -w <remote>` (each remote's `dev` script): the whole site with this remote in watch
// mode (devSite.mjs). The remote is the folder npm runs the script in, or the first argument.
// Prints the site's URL; Ctrl-C stops everything it started.
// First: on a Node too old it stops here, with the command to run, before anything is loaded.
import '../../scripts/requireSupportedNode.mjs';
import path from 'node:path';
import { childLineRelay, startProcessLogs } from '@khs/observability';
import { startDevSite } from './devSite.mjs';

const remote = process.argv[2] ?? path.basename(process.cwd());
// Its own lines as JSON lines of `dev` (LOG_FORMAT=pretty for people), the parts' as they come.
const logger = startProcessLogs('dev');
const site = await startDevSite({ remote, log: childLineRelay(logger) }).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(JSON.stringify({ event: 'listening', url: site.url, remote, manifestUrl: site.manifestUrl }));
console.log(`KHS competence site with ${remote} in watch mode: ${site.url}`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void site.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
