// Deploy and rollback of one remote to its origin (a folder a static origin or CDN serves):
//
//   <target>/versions/<buildVersion>/   every build ever published, a full copy, never overwritten
//   <target>/mf-manifest.json (.br .gz) the live version's manifest, its paths rebased onto its
//                                       folder: the one file browsers and the shell revalidate
//   <target>/deployments.json           what went live when (deploys and rollbacks)
//   <target>/rollout.json               the canary split: stable version, canary version and share,
//                                       and how the last canary ended (absent: no canary ever)
//
// Publishing copies into a temporary folder and renames it into place (a version appears whole or
// not at all, and rename refuses an existing folder). Switching writes each file under a temporary
// name and renames it over the old one: a reader gets the old manifest or the new one, never a mix.
// Switches are serialised by a lock file, so two deploys at once each leave a consistent origin.
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { cp, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { compressedCopies } from '@khs/rspack-preset/precompress';

/** Where `npm start` serves each remote from, and where deploy and rollback go by default: `.origins/<remote>`. */
export const LOCAL_ORIGINS_DIR = path.resolve(import.meta.dirname, '../../.origins');

/** The local origin folder of `remote` (the default `--to`). */
export function localOrigin(remote) {
  return path.join(LOCAL_ORIGINS_DIR, remote);
}

export const MANIFEST_FILE = 'mf-manifest.json';
export const DEPLOYMENTS_FILE = 'deployments.json';
export const VERSIONS_DIR = 'versions';
export const ROLLOUT_FILE = 'rollout.json';
const LOCK_FILE = '.deploy.lock';
/** A lock older than this belongs to a process that died mid-switch (a switch takes milliseconds). */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

/** Build versions become folder and URL path names: letters, digits and `.+_-` only. */
const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$/;

/** A deploy or rollback that was refused; `code` says why (for scripts and tests). */
export class DeployError extends Error {
  /** @param {'not-built'|'no-version'|'bad-version'|'version-conflict'|'unknown-version'|'nothing-to-roll-back'|'locked'|'not-rebasable'|'bad-share'|'no-stable'|'canary-active'|'no-canary'} code */
  constructor(code, message) {
    super(message);
    this.name = 'DeployError';
    this.code = code;
  }
}

/** The build version a build folder's manifest declares (`metaData.buildVersion`). */
export async function buildVersionOf(dir) {
  const manifest = await readManifest(path.join(dir, MANIFEST_FILE), dir);
  const version = manifest.metaData?.buildVersion;
  if (typeof version !== 'string' || version === '') {
    throw new DeployError('no-version', `${dir}/${MANIFEST_FILE} has no metaData.buildVersion: build it with tooling/rspack-preset (npm run build)`);
  }
  if (!VERSION_PATTERN.test(version)) throw new DeployError('bad-version', `build version "${version}" cannot name a folder`);
  return version;
}

async function readManifest(file, dir) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new DeployError('not-built', `${dir} holds no ${MANIFEST_FILE}: build the remote first (npm run build)`);
  }
  return JSON.parse(text);
}

/**
 * The manifest of the version published in `versions/<version>/`, as served from the origin's
 * root: every path (remote entry, server entry, expose and shared assets) points into the
 * version's folder. `publicPath: auto` stays, so the origin's URL is never written down.
 */
export function rebaseManifest(manifest, version) {
  const prefix = `${VERSIONS_DIR}/${version}/`;
  const publicPath = manifest.metaData?.publicPath;
  if (publicPath !== undefined && publicPath !== 'auto' && publicPath !== '') {
    throw new DeployError('not-rebasable', `the build has a fixed publicPath (${publicPath}); deploy needs publicPath "auto"`);
  }
  const rebased = structuredClone(manifest);
  const join = (folder = '') => prefix + folder.replace(/^\.?\//, '');
  if (rebased.metaData.remoteEntry) rebased.metaData.remoteEntry.path = join(rebased.metaData.remoteEntry.path);
  if (rebased.metaData.ssrRemoteEntry) rebased.metaData.ssrRemoteEntry.path = join(rebased.metaData.ssrRemoteEntry.path);
  const rebaseAssets = (assets) => {
    for (const kind of ['js', 'css']) {
      for (const timing of ['sync', 'async']) {
        const files = assets?.[kind]?.[timing];
        if (Array.isArray(files)) assets[kind][timing] = files.map((file) => join(file));
      }
    }
  };
  for (const item of [...(rebased.exposes ?? []), ...(rebased.shared ?? [])]) rebaseAssets(item.assets);
  return rebased;
}

/** The deployments record of `target` (an empty one before the first deploy). */
export async function readDeployments(target) {
  try {
    return JSON.parse(await readFile(path.join(target, DEPLOYMENTS_FILE), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return { current: null, history: [] };
    throw error;
  }
}

/**
 * The versions that were live, oldest first, as rollbacks see them: a deploy puts its version on
 * top, a rollback takes the top one off. The last is live; rollback goes to the one before it.
 */
export function liveStack(history) {
  const stack = [];
  for (const entry of history) {
    // Starting or aborting a canary changes nothing for everyone; its promote is a switch.
    if (entry.action === 'canary' || entry.action === 'abort') continue;
    if (entry.action === 'rollback') stack.pop();
    if (stack.at(-1) !== entry.version) stack.push(entry.version);
  }
  return stack;
}

/** Versions published in `target`, by name. */
export async function publishedVersions(target) {
  try {
    return (await readdir(path.join(target, VERSIONS_DIR), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Copies the build in `from` into `<target>/versions/<buildVersion>/`. A version folder is never
 * overwritten: the same version with the same files is left as it is (`alreadyPublished`), the
 * same version with other files is refused (`version-conflict`).
 * @returns {Promise<{ version: string, dir: string, alreadyPublished: boolean }>}
 */
export async function publish({ from, target }) {
  const version = await buildVersionOf(from);
  const versionsDir = path.join(target, VERSIONS_DIR);
  const dir = path.join(versionsDir, version);
  await mkdir(versionsDir, { recursive: true });
  if (await exists(dir)) {
    await assertSameFiles(from, dir, version);
    return { version, dir, alreadyPublished: true };
  }
  const staging = path.join(versionsDir, `.staging-${version}-${randomBytes(6).toString('hex')}`);
  try {
    await cp(from, staging, { recursive: true, errorOnExist: true, force: false });
    try {
      // rename() onto a non-empty folder fails: two publishes of one version cannot both win.
      await rename(staging, dir);
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await assertSameFiles(from, dir, version);
      return { version, dir, alreadyPublished: true };
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { version, dir, alreadyPublished: false };
}

async function assertSameFiles(from, dir, version) {
  const [ours, theirs] = await Promise.all([listFiles(from), listFiles(dir)]);
  const differs = ours.length !== theirs.length || ours.some((file, index) => file !== theirs[index]);
  if (!differs) {
    for (const file of ours) {
      const [a, b] = await Promise.all([readFile(path.join(from, file)), readFile(path.join(dir, file))]);
      if (!a.equals(b)) return refuse(file);
    }
    return;
  }
  return refuse();

  function refuse(file) {
    throw new DeployError(
      'version-conflict',
      `version ${version} is already published in ${dir} with other files${file ? ` (${file} differs)` : ''}; a published version is never overwritten`,
    );
  }
}

async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Makes the published `version` the live one: writes the rebased manifest (and its .br/.gz) and
 * the record, each atomically, under the target's lock.
 * @param {{ target: string, version: string, action?: 'deploy'|'rollback', now?: () => Date }} options
 * @returns {Promise<{ version: string, previous: string|null, changed: boolean }>}
 */
export async function switchTo({ target, version, action = 'deploy', now = () => new Date() }) {
  if (!VERSION_PATTERN.test(version)) throw new DeployError('bad-version', `"${version}" is not a build version`);
  return withLock(target, async () => {
    const record = await readDeployments(target);
    const result = await switchLocked(target, record, version, action, now);
    return result;
  });
}

async function switchLocked(target, record, version, action, now) {
  const manifestFile = path.join(target, VERSIONS_DIR, version, MANIFEST_FILE);
  if (!(await exists(manifestFile))) throw new DeployError('unknown-version', `version ${version} is not published in ${target}`);
  const previous = record.current ?? null;
  if (previous === version && action === 'deploy') return { version, previous, changed: false };
  const manifest = rebaseManifest(await readManifest(manifestFile, target), version);
  // When this version went live at this origin: what /health/remotes shows as "live since".
  const at = now().toISOString();
  manifest.metaData.deployedAt = at;
  const body = Buffer.from(JSON.stringify(manifest, null, 2));
  const copies = await compressedCopies(body);
  const root = path.join(target, MANIFEST_FILE);
  // The compressed copies first: a stale .br beside a new plain file would be served to most browsers.
  if (copies) {
    await replaceFile(`${root}.br`, copies.br);
    await replaceFile(`${root}.gz`, copies.gz);
  } else {
    await rm(`${root}.br`, { force: true });
    await rm(`${root}.gz`, { force: true });
  }
  await replaceFile(root, body);
  const next = {
    current: version,
    history: [...record.history, { action, version, previous, at }],
  };
  await replaceFile(path.join(target, DEPLOYMENTS_FILE), Buffer.from(JSON.stringify(next, null, 2) + '\n'));
  // The split names the live version as stable: a switch ends a running canary (promote says so itself).
  const rollout = await readRollout(target);
  if (rollout && (rollout.canary || rollout.stable !== version) && action !== 'promote') {
    const ended = rollout.canary
      ? { version: rollout.canary.version, outcome: 'aborted', reason: `${action} of ${version} while the canary ran`, at }
      : rollout.ended;
    await writeRollout(target, { stable: version, canary: null, ended });
  }
  return { version, previous, changed: true };
}

/**
 * Publishes the build in `from` and switches `target` to it.
 * @returns {Promise<{ version: string, previous: string|null, changed: boolean, alreadyPublished: boolean }>}
 */
export async function deploy({ from, target, now }) {
  const published = await publish({ from, target });
  const switched = await switchTo({ target, version: published.version, action: 'deploy', now });
  return { ...switched, alreadyPublished: published.alreadyPublished };
}

/**
 * What `npm start -- --no-build` serves: the version live in `target`, never the build in `from`
 * (a leftover candidate there must not become live, nor end a running canary). Only a target with
 * nothing live yet gets `from` deployed. While a canary runs, a `from` whose version is not the live
 * one is refused (`canary-active`, naming the folder): the start would otherwise look like it
 * serves that build. Without a canary it is left aside, and `skipped` says which version it holds.
 * @returns {Promise<{ version: string, changed: boolean, skipped?: string }>}
 */
export async function keepLive({ from, target, now }) {
  const live = (await readDeployments(target)).current;
  if (!live) return deploy({ from, target, now });
  const built = await buildVersionOf(from).catch(() => undefined);
  if (built === undefined || built === live) return { version: live, changed: false };
  const canary = (await readRollout(target))?.canary;
  if (canary) {
    throw new DeployError(
      'canary-active',
      `${from} holds ${built}, not the live ${live}, while canary ${canary.version} runs in ${target}: ` +
        'start without --no-build to build and deploy the sources (that ends the canary), or put the live build back in that folder',
    );
  }
  return { version: live, changed: false, skipped: built };
}

/**
 * Switches `target` back to the version that was live before the current one.
 * @returns {Promise<{ version: string, previous: string }>}
 */
export async function rollback({ target, now = () => new Date() }) {
  return withLock(target, async () => {
    const record = await readDeployments(target);
    const stack = liveStack(record.history);
    if (stack.length < 2) {
      throw new DeployError('nothing-to-roll-back', `${target} has no earlier version to roll back to (live: ${record.current ?? 'none'})`);
    }
    const version = stack.at(-2);
    const result = await switchLocked(target, record, version, 'rollback', now);
    return { version: result.version, previous: result.previous };
  });
}

/** Writes `file` atomically: a temporary file in the same folder, flushed, renamed over it. */
async function replaceFile(file, body) {
  const temporary = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function withLock(target, work) {
  await mkdir(target, { recursive: true });
  const lock = path.join(target, LOCK_FILE);
  const deadline = Date.now() + LOCK_WAIT_MS;
  let handle;
  for (let delay = 5; !handle; delay = Math.min(delay * 2, 100)) {
    try {
      // O_EXCL: exactly one process creates the lock file.
      handle = await open(lock, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = await stat(lock).then((stats) => Date.now() - stats.mtimeMs, () => 0);
      if (age > STALE_LOCK_MS) {
        await unlink(lock).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) throw new DeployError('locked', `${lock} is held by another deploy; remove it if no deploy is running`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
    return await work();
  } finally {
    await handle.close();
    await unlink(lock).catch(() => {});
  }
}

async function exists(file) {
  return stat(file).then(() => true, () => false);
}

/**
 * The canary split of `target` (`rollout.json`), or null when none was ever started (then the live
 * manifest is the stable version for everyone).
 * @returns {Promise<import('./index.d.ts').Rollout | null>}
 */
export async function readRollout(target) {
  try {
    return JSON.parse(await readFile(path.join(target, ROLLOUT_FILE), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}

/** Written like the manifest: whole or not at all (a temporary file renamed over the old one). */
async function writeRollout(target, rollout) {
  await replaceFile(path.join(target, ROLLOUT_FILE), Buffer.from(JSON.stringify(rollout, null, 2) + '\n'));
}

async function appendHistory(target, record, entry) {
  const next = { current: record.current, history: [...record.history, entry] };
  await replaceFile(path.join(target, DEPLOYMENTS_FILE), Buffer.from(JSON.stringify(next, null, 2) + '\n'));
}

/**
 * Publishes the build in `from` and makes it the canary: live for about `percent` % of visitors
 * (each shell assigns a visitor by a hash of their visitor cookie), the live version stays the
 * stable one for the rest. Refused without a live version (`no-stable`), for the live version
 * itself, and while another canary runs (`canary-active`: promote or abort it first).
 * @param {{ from: string, target: string, percent: number, now?: () => Date }} options
 * @returns {Promise<{ version: string, stable: string, share: number, alreadyPublished: boolean }>}
 */
export async function startCanary({ from, target, percent, now = () => new Date() }) {
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent <= 0 || percent >= 100) {
    throw new DeployError('bad-share', `--canary takes a percentage above 0 and below 100 (got ${percent}); to make a version live for everyone, deploy without --canary`);
  }
  const published = await publish({ from, target });
  return withLock(target, async () => {
    const record = await readDeployments(target);
    const stable = record.current;
    if (!stable) throw new DeployError('no-stable', `${target} has no live version to compare a canary with: deploy one first`);
    if (stable === published.version) throw new DeployError('canary-active', `${published.version} is already live for everyone in ${target}`);
    const rollout = await readRollout(target);
    if (rollout?.canary) {
      throw new DeployError('canary-active', `canary ${rollout.canary.version} is running in ${target}: promote or abort it first`);
    }
    const share = Math.round(percent * 100) / 10_000;
    const at = now().toISOString();
    await writeRollout(target, { stable, canary: { version: published.version, share, startedAt: at }, ended: rollout?.ended ?? null });
    await appendHistory(target, record, { action: 'canary', version: published.version, previous: stable, at, share });
    return { version: published.version, stable, share, alreadyPublished: published.alreadyPublished };
  });
}

/**
 * Makes the running canary live for everyone (the normal switch) and clears the split, recording
 * `ended.outcome = "promoted"`. Refused without a running canary (`no-canary`).
 * @returns {Promise<{ version: string, previous: string|null }>}
 */
export async function promoteCanary({ target, now = () => new Date() }) {
  return withLock(target, async () => {
    const rollout = await readRollout(target);
    if (!rollout?.canary) throw new DeployError('no-canary', `no canary is running in ${target}`);
    const record = await readDeployments(target);
    const result = await switchLocked(target, record, rollout.canary.version, 'promote', now);
    const at = (await readDeployments(target)).history.at(-1).at;
    await writeRollout(target, {
      stable: rollout.canary.version,
      canary: null,
      ended: { version: rollout.canary.version, outcome: 'promoted', reason: 'promoted by an operator', at },
    });
    return { version: result.version, previous: result.previous };
  });
}

/**
 * Ends the running canary without making it live: everyone gets the stable version again
 * (`ended.outcome = "aborted"`, or `"rolled-back"` when the shells' canary rule ended it and the
 * operator records that). Refused without a running canary (`no-canary`).
 * @param {{ target: string, reason?: string, outcome?: 'aborted'|'rolled-back', now?: () => Date }} options
 * @returns {Promise<{ version: string, stable: string }>}
 */
export async function abortCanary({ target, reason = 'aborted by an operator', outcome = 'aborted', now = () => new Date() }) {
  return withLock(target, async () => {
    const rollout = await readRollout(target);
    if (!rollout?.canary) throw new DeployError('no-canary', `no canary is running in ${target}`);
    const at = now().toISOString();
    await writeRollout(target, { stable: rollout.stable, canary: null, ended: { version: rollout.canary.version, outcome, reason, at } });
    const record = await readDeployments(target);
    await appendHistory(target, record, { action: 'abort', version: rollout.canary.version, previous: rollout.stable, at });
    return { version: rollout.canary.version, stable: rollout.stable };
  });
}
