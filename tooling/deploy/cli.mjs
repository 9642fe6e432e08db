#!/usr/bin/env node
// khs-deploy deploy   [--to <target>] [--from <build folder>]
// khs-deploy rollback [--to <target>]
// khs-deploy status   [--to <target>]
// Run from a remote's folder (`npm run deploy -w mf-search -- --to /srv/cdn/mf-search`): the remote
// is the package there, the build its `dist/`, the target by default its local origin folder
// (.origins/<remote>, what `npm start` serves). See README.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DeployError, deploy, liveStack, localOrigin, publishedVersions, readDeployments, rollback } from './index.mjs';

const USAGE = 'usage: khs-deploy deploy|rollback|status [--to <target folder>] [--from <build folder>]';

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { to: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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

const cwd = process.cwd();
let remote;
try {
  remote = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')).name;
} catch {
  fail(`run khs-deploy from a remote's folder (no package.json in ${cwd})`, 2);
}
const target = path.resolve(cwd, values.to ?? localOrigin(remote));
const from = path.resolve(cwd, values.from ?? 'dist');

try {
  if (command === 'deploy') {
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
  }
} catch (error) {
  if (error instanceof DeployError) fail(`${remote}: ${error.message}`);
  throw error;
}
