import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { fetchWithTimeout } from '../fetchWithTimeout.js';
import type { BuildFolders } from './buildFolders.js';

/**
 * Every fetch of the federation runtimes in this process (the shell's and the remotes' own: a
 * global plugin) gets a deadline and fails on an error status; a chunk the runtime looked for in
 * another build's folder (404) is fetched from the folder of the build that has it (`BuildFolders`).
 */
export function serverFetchPlugin(options: { fetch: typeof fetch; timeoutMs: number; folders: BuildFolders }): ModuleFederationRuntimePlugin {
  return {
    name: 'khs-shell-deadlines',
    async fetch(url: string, init: RequestInit) {
      try {
        return await fetchWithTimeout(options.fetch, url, options.timeoutMs, init);
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
        for (const alternative of options.folders.alternativesFor(url)) {
          try {
            return await fetchWithTimeout(options.fetch, alternative, options.timeoutMs, init);
          } catch (otherError) {
            if ((otherError as { status?: number }).status !== 404) throw otherError;
          }
        }
        throw error;
      }
    },
  };
}
