// Which shared modules each exposed module needs as it loads, written into the browser build's
// `mf-manifest.json` as `exposes[].requires` (the field Module Federation's stats name for an
// expose's shared dependencies, left empty there by rspack's manifest). A host reads it to know
// what a first view really loads: an island bound without React needs no React renderer preloaded.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Chunk group of an exposed module, as Module Federation names it. */
const EXPOSE_GROUP_PREFIX = '__federation_expose_';

/** The share key of a consume-shared module, from its identifier (`consume shared module (default) react@19.3.1 …`). */
export function shareKeyOf(identifier) {
  const match = /^consume shared module \([^)]*\) (@?[^@\s]+)@/.exec(identifier);
  return match ? match[1] : null;
}

/**
 * Share keys consumed by the chunks an expose loads at once (its own chunk group, not the chunks
 * it may import later), per chunk group name.
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

/** Rspack plugin of a remote's browser build: adds `requires` to each expose of `mf-manifest.json` after emit. */
export class ExposeSharedManifestPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tap('ExposeSharedManifestPlugin', (compilation) => {
      const byGroup = sharedByExposeGroup(compilation);
      const file = path.join(compiler.options.output.path, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      for (const expose of manifest.exposes ?? []) {
        const requires = byGroup.get(`${EXPOSE_GROUP_PREFIX}${expose.name}`);
        if (requires) expose.requires = requires;
      }
      writeFileSync(file, JSON.stringify(manifest, null, 2));
    });
  }
}
