import { CONTRACTS_VERSION, contractsCompatibility } from 'contracts';
import { ServerIslandError } from '../serverIslandError.js';
import type { ServerFederationPlugin } from '../serverFederationPlugin.js';

/**
 * Never runs a build made against contracts this shell does not speak (another major, or none
 * recorded in `metaData.contractsVersion`): `KHS-ISLAND-004`, before any of its code loads.
 * @param hostVersion the contracts version this shell speaks; default `CONTRACTS_VERSION`.
 */
export function contractsCompatibilityPlugin(hostVersion: string = CONTRACTS_VERSION): ServerFederationPlugin {
  return {
    name: 'khs-server-contracts-compatibility',
    beforeLoad({ remote, manifest }) {
      const verdict = contractsCompatibility(manifest.json.metaData?.contractsVersion, hostVersion);
      if (!verdict.compatible) throw new ServerIslandError(remote, 'compatibility', `"${remote}" refused: ${verdict.reason}`);
    },
  };
}
