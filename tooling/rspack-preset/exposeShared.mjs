// Which shared modules each exposed module needs as it loads: `exposes[].requires` in a remote's
// `mf-manifest.json` and `mf-stats.json`, and its inverse `shared[].usedIn` in `mf-stats.json`.
// A host reads `requires` to know what a first view really loads: an island bound without React
// needs no React renderer preloaded.
//
// Why we write these fields ourselves: rspack's manifest plugin (2.2.x) fills them from the
// *issuer* of each consume-shared module, i.e. the one module that happened to request it first
// while the module graph was built in parallel, and from the reasons' request strings, which never
// name an expose. So a shared module that six exposes import is attributed to one of them, a
// different one from build to build: `requires` moved between exposes and the same sources wrote
// other stats bytes under the same build version (a redeploy of an unchanged checkout was refused).
// The chunk graph knows the answer: the consume-shared modules in the chunks of an expose's own
// chunk group are the shared modules it needs as it loads.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Chunk group of an exposed module, as Module Federation names it. */
const EXPOSE_GROUP_PREFIX = '__federation_expose_';

/** The files whose expose and shared lists this plugin corrects (when the build wrote them). */
const FEDERATION_FILES = ['mf-manifest.json', 'mf-stats.json'];

/** The share key of a consume-shared module, from its identifier (`consume shared module (default) react@19.3.1 …`). */
export function shareKeyOf(identifier) {
  const match = /^consume shared module \([^)]*\) (@?[^@\s]+)@/.exec(identifier);
  return match ? match[1] : null;
}

/**
 * Share keys consumed by the chunks an expose loads at once (its own chunk group, not the chunks
 * it may import later), sorted, per chunk group name.
 * @returns {Map<string, string[]>}
 */
function sharedByExposeGroup(compilation) {
  const byGroup = new Map();
  for (const [name, group] of compilation.namedChunkGroups) {
    if (!name.startsWith(EXPOSE_GROUP_PREFIX)) continue;
    const keys = new Set();
    for (const chunk of group.chunks) {
      for (const module of compilation.chunkGraph.getChunkModules(chunk)) {
        if (module.type !== 'consume-shared-module') continue;
        const key = shareKeyOf(module.identifier());
        if (key) keys.add(key);
      }
    }
    byGroup.set(name, [...keys].sort());
  }
  return byGroup;
}

/** Code-point order, the same on every machine (no locale). */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sets `exposes[].requires` of a manifest or stats document from `requiresByGroup` (chunk group
 * name → sorted share keys) and, where the document has them (stats), `shared[].usedIn`: the
 * files of the exposes that require that shared module, sorted; and sorts `shared[]` by id. All are
 * sets: sorted, so the same build writes the same bytes.
 * @param {{ exposes?: Array<{ name: string, file?: string, requires?: string[] }>, shared?: Array<{ name: string, usedIn?: string[] }> }} document
 * @param {Map<string, string[]>} requiresByGroup
 */
export function applyExposeRequirements(document, requiresByGroup) {
  const exposes = document.exposes ?? [];
  for (const expose of exposes) {
    const requires = requiresByGroup.get(`${EXPOSE_GROUP_PREFIX}${expose.name}`);
    if (requires) expose.requires = [...requires];
    else if (Array.isArray(expose.requires)) expose.requires = [...new Set(expose.requires)].sort();
  }
  for (const shared of document.shared ?? []) {
    if (!Array.isArray(shared.usedIn)) continue;
    shared.usedIn = [...new Set(exposes.filter((expose) => expose.requires?.includes(shared.name)).map((expose) => expose.file ?? expose.name))].sort();
  }
  // The shared list is a set too: rspack writes it in the order the parallel build met each
  // shared module (react before react-dom in one build, after it in the next).
  if (Array.isArray(document.shared)) document.shared.sort((a, b) => compareText(a.id ?? a.name, b.id ?? b.name));
  return document;
}

/**
 * Rspack plugin of a remote's browser and server builds: after emit, writes each expose's
 * `requires` (and, in the stats, each shared module's `usedIn`) from the chunk graph into
 * `mf-manifest.json` and `mf-stats.json`.
 */
export class ExposeSharedManifestPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tap('ExposeSharedManifestPlugin', (compilation) => {
      const requiresByGroup = sharedByExposeGroup(compilation);
      for (const name of FEDERATION_FILES) {
        const file = path.join(compiler.options.output.path, name);
        let document;
        try {
          document = JSON.parse(readFileSync(file, 'utf8'));
        } catch (error) {
          if (error.code === 'ENOENT') continue;
          throw error;
        }
        writeFileSync(file, JSON.stringify(applyExposeRequirements(document, requiresByGroup), null, 2));
      }
    });
  }
}
