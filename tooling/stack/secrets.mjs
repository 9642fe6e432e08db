// The site's secrets when nobody set them: `npm start` (and every stack) must not run on values
// anyone can read in this repository. Each secret missing from the environment is generated once,
// kept in the data folder (`secrets.json`, mode 0600) and reused by every later start on that folder.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TEAM_SERVICES } from './registry.mjs';

/** The file in the data folder that keeps generated secrets. */
export const SECRETS_FILE_NAME = 'secrets.json';

/**
 * Every secret the stack hands out, by environment variable: the shell's cookie secret, the search
 * server's admin and search-only keys, each team service's edge key (registry `edgeKeyEnv`), and
 * the editor token that opens the editors' pages (registry `readsEditorToken`), and the operators'
 * secret that signs remote preview links (`REMOTE_PREVIEW_SECRET`: the shell checks them,
 * `npm run deploy -- --preview` reads it from this file to sign), and the editors' preview secret
 * (`PREVIEW_SECRET`: the shell checks article preview links, `npm run preview-link -w @khs/content`
 * reads it from this file to sign).
 */
export const SECRET_NAMES = Object.freeze([
  'COOKIE_SECRET',
  'TYPESENSE_API_KEY',
  'TYPESENSE_SEARCH_API_KEY',
  ...TEAM_SERVICES.map((service) => service.edgeKeyEnv),
  'EDITOR_TOKEN',
  'REMOTE_PREVIEW_SECRET',
  'PREVIEW_SECRET',
]);

/** A fresh random secret: 32 bytes, base64url (43 characters). */
export function generateSecret() {
  return randomBytes(32).toString('base64url');
}

/**
 * The value of every secret in `names` (default `SECRET_NAMES`): from `env` when set there, else from
 * `<dataDir>/secrets.json`, else generated now and added to that file (written to a temporary file
 * with mode 0600 and renamed over it). Returns the values, the file, and which names came from
 * where.
 * @param {string} dataDir
 * @param {Record<string, string | undefined>} env
 * @param {readonly string[]} [names]
 * @returns {{ values: Record<string, string>, file: string, fromEnv: string[], reused: string[], generated: string[] }}
 */
export function loadStackSecrets(dataDir, env, names = SECRET_NAMES) {
  const file = path.join(dataDir, SECRETS_FILE_NAME);
  let stored = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error.code !== 'ENOENT') throw new Error(`${file} cannot be read (${error.message}): fix or remove it (new secrets are then generated)`);
  }
  const values = {};
  const fromEnv = [];
  const reused = [];
  const generated = [];
  for (const name of names) {
    const given = env[name]?.trim();
    if (given) {
      values[name] = given;
      fromEnv.push(name);
    } else if (typeof stored[name] === 'string' && stored[name].length >= 32) {
      values[name] = stored[name];
      reused.push(name);
    } else {
      values[name] = stored[name] = generateSecret();
      generated.push(name);
    }
  }
  if (generated.length > 0) {
    mkdirSync(dataDir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  }
  // Also an older file someone made readable: only its owner may read it.
  if (generated.length > 0 || reused.length > 0) chmodSync(file, 0o600);
  return { values, file, fromEnv, reused, generated };
}
