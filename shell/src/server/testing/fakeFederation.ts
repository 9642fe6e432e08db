import type { IslandServerModule } from 'contracts';
import type { ServerFederation } from '../federation/serverFederation.js';

/**
 * A federation for tests: one live build per remote (`<remote>@1`, a stylesheet on cdn.test, no
 * scripts, nothing pinned), whose server modules `load` gives.
 */
export function fakeFederation(load: (remote: string, module: string) => Partial<IslandServerModule> | undefined): ServerFederation {
  return {
    load: async (remote: string, module: string) => load(remote, module),
    buildKey: (remote: string) => `${remote}@1`,
    stylesheets: (remote: string) => [`https://cdn.test/${remote}.css`],
    scripts: () => [],
    needsRenderer: () => false,
    pinnableLiveVersion: () => undefined,
    browserEntryUrl: () => undefined,
    pinnedManifestUrl: () => undefined,
    pollStates: () => [],
    liveBuildVersion: () => undefined,
    liveBuildVersions: () => [],
  } as unknown as ServerFederation;
}
