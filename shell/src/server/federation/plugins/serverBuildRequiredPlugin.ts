import { ServerIslandError } from '../serverIslandError.js';
import type { ServerFederationPlugin } from '../serverFederationPlugin.js';

/** Never runs a browser build in the server process: the manifest must name a server build (`metaData.ssrRemoteEntry`). */
export function serverBuildRequiredPlugin(): ServerFederationPlugin {
  return {
    name: 'khs-server-build-required',
    beforeLoad({ remote, manifest }) {
      if (!manifest.json.metaData?.ssrRemoteEntry?.name) {
        throw new ServerIslandError(remote, 'manifest', `the manifest of "${remote}" names no server build (metaData.ssrRemoteEntry)`);
      }
    },
  };
}
