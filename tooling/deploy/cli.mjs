#!/usr/bin/env node
// khs-deploy deploy   [--to <target>] [--from <build folder>] [--canary <percent> | --promote | --abort [--reason <text>]]
// khs-deploy deploy --preview [--site <site URL>] [--to …] [--from …]   publish only, print a signed preview link
// khs-deploy rollback [--to <target>]
// khs-deploy status   [--to <target>] [--site <site URL>]   (OPERATOR_TOKEN from the environment)
// Run from a remote's folder (`npm run deploy -w mf-search -- --to /srv/cdn/mf-search`): the remote
// is the package there, the build its `dist/`, the target by default its local origin folder
// (.origins/<remote>, what `npm start` serves). See README.md.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DeployError, abortCanary, deploy, liveStack, localOrigin, promoteCanary, publish, publishedVersions, readDeployments, readRollout, rollback, startCanary } from './index.mjs';
import { PREVIEW_SECRET_ENV, previewLink } from './previewLink.mjs';
import { fetchSiteHealth, formatRemoteStatus } from './siteStatus.mjs';

const USAGE = [
  'usage: khs-deploy deploy   [--to <target folder>] [--from <build folder>] [--canary <percent> | --promote | --abort [--reason <text>]]',
  '       khs-deploy deploy   --preview [--site <site URL>] [--to <target folder>] [--from <build folder>]',
  '       khs-deploy rollback [--to <target folder>]',
  '       khs-deploy status   [--to <target folder>] [--site <site URL, default PUBLIC_BASE_URL>]  (OPERATOR_TOKEN for the site\'s figures)',
].join('\n');
/** The site `npm start` serves, for preview links when neither `--site` nor `PUBLIC_BASE_URL` is given. */
const LOCAL_SITE = 'http://127.0.0.1:4300';

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      from: { type: 'string' },
      canary: { type: 'string' },
      promote: { type: 'boolean' },
      abort: { type: 'boolean' },
      reason: { type: 'string' },
      preview: { type: 'boolean' },
      site: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(`${error.message}\n${USAGE}`, 2);
}
const { values, positionals } = parsed;
const [command] = positionals;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!['deploy', 'rollback', 'status'].includes(command) || positionals.length > 1) fail(USAGE, 2);
const rolloutOptions = ['canary', 'promote', 'abort', 'preview'].filter((name) => values[name] !== undefined);
if (rolloutOptions.length > 1 || (rolloutOptions.length > 0 && command !== 'deploy')) fail(`--canary, --promote, --abort and --preview go alone, with deploy\n${USAGE}`, 2);
if (values.reason !== undefined && !values.abort) fail(`--reason goes with --abort\n${USAGE}`, 2);
if (values.site !== undefined && command !== 'status' && !values.preview) fail(`--site goes with status or deploy --preview\n${USAGE}`, 2);
let canaryPercent;
if (values.canary !== undefined) {
  canaryPercent = Number(values.canary.replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(values.canary) || !(canaryPercent > 0 && canaryPercent < 100)) fail(`--canary takes a percentage above 0 and below 100, e.g. --canary 10 (got "${values.canary}")`, 2);
}

const cwd = process.cwd();
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
let remote;
try {
  remote = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')).name;
} catch {
  fail(`run khs-deploy from a remote's folder (no package.json in ${cwd})`, 2);
}
const target = path.resolve(cwd, values.to ?? localOrigin(remote));
const from = path.resolve(cwd, values.from ?? 'dist');

try {
  if (command === 'deploy' && values.preview) {
    // Checked before publishing: a preview nobody can open is not worth a published folder.
    const secret = previewSecret();
    const site = values.site ?? process.env.PUBLIC_BASE_URL ?? LOCAL_SITE;
    try {
      new URL(site);
    } catch {
      fail(`${remote}: --site must be the site's URL (${site})`, 2);
    }
    const result = await publish({ from, target });
    console.log(`${remote}: ${result.version} ${result.alreadyPublished ? 'already published' : 'published'} in ${target}, not live`);
    console.log(`preview link (valid 24 h): ${previewLink({ site, remote, version: result.version, secret })}`);
  } else if (command === 'deploy' && canaryPercent !== undefined) {
    const result = await startCanary({ from, target, percent: canaryPercent });
    console.log(`${remote}: ${result.version} ${result.alreadyPublished ? 'already published' : 'published'}; canary for ${+(result.share * 100).toFixed(2)} % of visitors in ${target} (stable: ${result.stable})`);
  } else if (command === 'deploy' && values.promote) {
    const result = await promoteCanary({ target });
    console.log(`${remote}: canary ${result.version} promoted, live for everyone in ${target} (was ${result.previous ?? 'none'})`);
  } else if (command === 'deploy' && values.abort) {
    const result = await abortCanary({ target, ...(values.reason ? { reason: values.reason } : {}) });
    console.log(`${remote}: canary ${result.version} aborted in ${target}; everyone gets ${result.stable}`);
  } else if (command === 'deploy') {
    const result = await deploy({ from, target });
    const published = result.alreadyPublished ? 'already published' : 'published';
    console.log(
      result.changed
        ? `${remote}: ${result.version} ${published} and live in ${target} (was ${result.previous ?? 'none'})`
        : `${remote}: ${result.version} is already live in ${target}`,
    );
  } else if (command === 'rollback') {
    const result = await rollback({ target });
    console.log(`${remote}: rolled back to ${result.version} in ${target} (was ${result.previous})`);
  } else {
    const record = await readDeployments(target);
    const stack = liveStack(record.history);
    console.log(`${remote} in ${target}`);
    console.log(`  live:        ${record.current ?? 'none'}`);
    console.log(`  rollback to: ${stack.at(-2) ?? 'none'}`);
    console.log(`  published:   ${(await publishedVersions(target)).join(', ') || 'none'}`);
    const rollout = await readRollout(target);
    if (rollout?.canary) console.log(`  canary:      ${rollout.canary.version} for ${+(rollout.canary.share * 100).toFixed(2)} % since ${rollout.canary.startedAt}`);
    if (rollout?.ended) console.log(`  last canary: ${rollout.ended.version} ${rollout.ended.outcome} at ${rollout.ended.at} (${rollout.ended.reason})`);
    const site = values.site ?? process.env.PUBLIC_BASE_URL;
    if (!site) {
      console.log('  site:        no --site or PUBLIC_BASE_URL: views and failure rates not shown');
    } else {
      const health = await fetchSiteHealth({ site, token: process.env.OPERATOR_TOKEN });
      if (!health.ok) fail(`${remote}: ${health.error}`);
      for (const line of formatRemoteStatus(health.body, remote)) console.log(line);
    }
  }
} catch (error) {
  if (error instanceof DeployError) fail(`${remote}: ${error.message}`);
  throw error;
}

/**
 * The operators' secret that signs preview links: `REMOTE_PREVIEW_SECRET`, else the one `npm start`
 * generated for this checkout's site (`DATA_DIR`, default `.data`, `secrets.json`; read, never written).
 */
function previewSecret() {
  const given = process.env[PREVIEW_SECRET_ENV]?.trim();
  if (given) return given;
  const file = path.join(path.resolve(REPO_ROOT, process.env.DATA_DIR ?? '.data'), 'secrets.json');
  if (existsSync(file)) {
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8'))[PREVIEW_SECRET_ENV];
      if (typeof stored === 'string' && stored) return stored;
    } catch {
      // Unreadable: said below.
    }
  }
  return fail(`${remote}: a preview link needs the site's signing secret: set ${PREVIEW_SECRET_ENV} (the shell's), or start the site once with npm start (it keeps one in ${file})`, 2);
}
