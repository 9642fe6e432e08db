// The slices' browser settings: a slice whose islands need settings of the running site (where the
// search server is, which key browsers use) declares a module of its own in its manifest
// (`remote.browserSettings`). The shell runs each at start with its environment and passes what it
// returns, unchanged, into every page's config; the shell itself reads none of those variables.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SLICES } from './registry.mjs';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The file of a slice's declared browser-settings module (undefined when it declares none). */
export function browserSettingsModule(slice, root = REPO_ROOT) {
  const declared = slice.remote?.browserSettings;
  return declared ? path.join(root, slice.name, declared.module) : undefined;
}

/**
 * Runs every declared browser-settings module (`readBrowserSettings(env)`, which returns
 * `{ pageConfig, connectOrigins?, notices?, problems? }`) and collects what they return: the page
 * config fields (only those the manifest declares), the origins browsers may reach for them, the
 * lines to print at start, and the problems (the shell does not start), each naming the slice.
 * @param {Record<string, string | undefined>} env
 * @param {{ slices?: readonly import('./registry.d.ts').SliceManifest[], root?: string }} [options]
 */
export async function readBrowserSettings(env, { slices = SLICES, root = REPO_ROOT } = {}) {
  const result = { pageConfig: {}, connectOrigins: [], notices: [], problems: [] };
  for (const slice of slices) {
    const declared = slice.remote?.browserSettings;
    if (!declared) continue;
    const at = `${slice.name}/slice.json: /remote/browserSettings`;
    let returned;
    try {
      const module = await import(pathToFileURL(browserSettingsModule(slice, root)).href);
      if (typeof module.readBrowserSettings !== 'function') throw new Error(`${declared.module} exports no readBrowserSettings function`);
      returned = await module.readBrowserSettings(env);
    } catch (error) {
      result.problems.push(`${at}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    result.problems.push(...(returned?.problems ?? []).map((problem) => `${problem} (${slice.name})`));
    result.notices.push(...(returned?.notices ?? []).map((notice) => `${slice.name}: ${notice}`));
    result.connectOrigins.push(...(returned?.connectOrigins ?? []));
    for (const field of declared.pageConfigFields) {
      if (returned?.pageConfig?.[field] === undefined) result.problems.push(`${at}: ${declared.module} returned no page config field "${field}"`);
      else result.pageConfig[field] = returned.pageConfig[field];
    }
    for (const field of Object.keys(returned?.pageConfig ?? {})) {
      if (!declared.pageConfigFields.includes(field)) result.problems.push(`${at}/pageConfigFields: ${declared.module} returned "${field}", which the manifest does not declare`);
    }
  }
  result.connectOrigins = [...new Set(result.connectOrigins)];
  return result;
}
