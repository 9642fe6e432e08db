import { buildVersionOf } from '../manifest.js';
import type { ServerFederationPlugin } from '../serverFederationPlugin.js';

/** One info line when a remote's live build changes: operators see a deploy reach this shell. */
export function newBuildLogPlugin(log: Pick<Console, 'info'> = console): ServerFederationPlugin {
  return {
    name: 'khs-server-new-build-log',
    liveBuildChanged({ remote, fresh }) {
      log.info?.(
        `[shell] remote "${remote}" has a new build (${buildVersionOf(fresh) ?? 'unknown version'}, manifest ${fresh.hash.slice(0, 12)}); the next pages render with it`,
      );
    },
  };
}
