// The slices' manifests: each slice folder declares itself in its `slice.json` (schema:
// `slice.schema.json`, checked with ajv). The registry (registry.mjs) is derived from what this
// module discovers, so a slice joins the site by adding its folder, not by editing a list.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';

/** The file a slice declares itself in, at its folder's root. */
export const SLICE_MANIFEST_FILE = 'slice.json';
/** Part names the stack uses for itself: no slice or service may take one. */
const RESERVED_NAMES = new Set(['shell', 'search', 'contracts', 'content', 'e2e', 'libs', 'tooling', 'scripts', 'deploy']);
/** Ports of the parts that are not slices (the shell, the search server). */
const RESERVED_PORTS = new Map([[4300, 'the shell'], [8108, 'the search server']]);

const schema = JSON.parse(readFileSync(path.join(import.meta.dirname, 'slice.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

/** One or more manifests are malformed or disagree: lists every problem, each naming its file and field. */
export class SliceManifestError extends Error {
  /** @param {string[]} problems */
  constructor(problems) {
    super(`Invalid slice manifest:\n- ${problems.join('\n- ')}`);
    this.name = 'SliceManifestError';
    this.problems = problems;
  }
}

/** Ajv's errors as "<file>: <field> <message>" lines. */
function schemaProblems(file, errors) {
  return (errors ?? []).map((error) => {
    const field = error.instancePath || '(the manifest)';
    const detail = error.keyword === 'additionalProperties' ? ` (${error.params.additionalProperty})` : error.keyword === 'enum' ? ` (${error.params.allowedValues.join(', ')})` : '';
    return `${file}: ${field} ${error.message}${detail}`;
  });
}

/**
 * The slice folders directly under `root` (folders with a `slice.json`), sorted by name.
 * @param {string} root
 */
export function sliceFolders(root) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules' && existsSync(path.join(root, entry.name, SLICE_MANIFEST_FILE)))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Checks one parsed manifest against the schema and its folder's name; returns its problems.
 * @param {unknown} manifest
 * @param {string} folder the slice's folder name
 */
export function checkSliceManifest(manifest, folder) {
  const file = `${folder}/${SLICE_MANIFEST_FILE}`;
  if (!validate(manifest)) return schemaProblems(file, validate.errors);
  const problems = [];
  if (manifest.name !== folder) problems.push(`${file}: /name must be the slice's folder name "${folder}", got "${manifest.name}"`);
  if (RESERVED_NAMES.has(manifest.name)) problems.push(`${file}: /name "${manifest.name}" is taken by the stack itself`);
  if (manifest.service) {
    // The entry is not checked here: the shell's image holds the manifests without the slices' code
    // (scripts/stackRegistry.test.ts checks each entry in the repository).
    if (RESERVED_NAMES.has(manifest.service.name)) problems.push(`${file}: /service/name "${manifest.service.name}" is taken by the stack itself`);
  }
  return problems;
}

/** Problems between manifests: names, ports and variables each belong to one slice. */
function crossProblems(manifests) {
  const problems = [];
  const owners = new Map();
  const claim = (kind, value, file, field) => {
    const key = `${kind}:${value}`;
    const owner = owners.get(key) ?? (kind === 'port' && RESERVED_PORTS.has(value) ? RESERVED_PORTS.get(value) : undefined);
    if (owner) problems.push(`${file}: ${field} ${value} is already ${owner}'s`);
    else owners.set(key, `${file} ${field}`);
  };
  for (const manifest of manifests) {
    const file = `${manifest.name}/${SLICE_MANIFEST_FILE}`;
    if (manifest.remote) {
      claim('port', manifest.remote.port, file, '/remote/port');
      claim('variable', manifest.remote.manifestEnv, file, '/remote/manifestEnv');
    }
    if (manifest.service) {
      claim('service', manifest.service.name, file, '/service/name');
      claim('port', manifest.service.port, file, '/service/port');
      claim('variable', manifest.service.urlEnv, file, '/service/urlEnv');
      claim('variable', manifest.service.edgeKeyEnv, file, '/service/edgeKeyEnv');
      for (const old of Object.keys(manifest.service.deprecatedEnv ?? {})) claim('variable', old, file, `/service/deprecatedEnv/${old}`);
    }
  }
  return problems;
}

/**
 * Every slice manifest under `root`, parsed and checked; throws `SliceManifestError` listing every
 * problem of every file at once.
 * @param {string} root the repository's root
 */
export function readSliceManifests(root) {
  const problems = [];
  const manifests = [];
  for (const folder of sliceFolders(root)) {
    const file = `${folder}/${SLICE_MANIFEST_FILE}`;
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(root, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: cannot be read as JSON: ${error.message}`);
      continue;
    }
    const own = checkSliceManifest(manifest, folder);
    problems.push(...own);
    if (own.length === 0) manifests.push(manifest);
  }
  problems.push(...crossProblems(manifests));
  if (problems.length > 0) throw new SliceManifestError(problems);
  return manifests;
}
