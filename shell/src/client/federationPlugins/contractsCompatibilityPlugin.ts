import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { CONTRACTS_VERSION, contractsCompatibility } from 'contracts';
import { IslandLoadError } from './islandLoadError.js';

/**
 * Refuses a remote built against contracts this shell does not speak (another major, or none
 * recorded in its manifest's `metaData.contractsVersion`) as soon as its manifest is read, before
 * its entry or any of its code loads: its islands keep their fallback (KHS-ISLAND-004).
 */
export function contractsCompatibilityPlugin(hostVersion: string = CONTRACTS_VERSION): ModuleFederationRuntimePlugin {
  return {
    name: 'khs-contracts-compatibility',
    loadRemoteSnapshot(args) {
      if (args.from !== 'manifest') return args;
      const metaData = args.manifestJson?.metaData as { contractsVersion?: unknown } | undefined;
      const verdict = contractsCompatibility(metaData?.contractsVersion, hostVersion);
      if (!verdict.compatible) {
        throw new IslandLoadError('KHS-ISLAND-004', 'compatibility', `remote "${args.moduleInfo.alias ?? args.moduleInfo.name}" refused: ${verdict.reason}`);
      }
      return args;
    },
  };
}
