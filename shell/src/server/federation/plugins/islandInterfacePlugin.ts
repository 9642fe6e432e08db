import { ISLAND_API_VERSION } from 'contracts';
import { ServerIslandError } from '../serverIslandError.js';
import type { ServerFederationPlugin } from '../serverFederationPlugin.js';

/**
 * A loaded module must be a server island this shell renders: a `render` function
 * (`KHS-ISLAND-006` otherwise) and the island interface version it speaks.
 * @param hostVersion the island interface this shell renders; default `ISLAND_API_VERSION`.
 */
export function islandInterfacePlugin(hostVersion: number = ISLAND_API_VERSION): ServerFederationPlugin {
  return {
    name: 'khs-server-island-interface',
    afterLoad({ remote, module, loaded }) {
      if (!loaded || typeof loaded.render !== 'function') {
        throw new ServerIslandError(remote, 'load', `"${remote}/${module}" has no server render`, { code: 'KHS-ISLAND-006' });
      }
      if (loaded.islandApiVersion !== hostVersion) {
        throw new ServerIslandError(
          remote,
          'version',
          `"${remote}/${module}" speaks island interface ${String(loaded.islandApiVersion)}; this shell renders ${hostVersion}`,
        );
      }
    },
  };
}
