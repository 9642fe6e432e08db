// A real federation runtime instance for the plugins' tests: remotes come from manifests a fake
// `fetch` answers, and their entries are fake containers (no script is loaded).
import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { CONTRACTS_VERSION, type IslandModule } from 'contracts';

let instances = 0;

/** A manifest of remote `name` exposing `Island`, built against `contractsVersion` (null: none recorded). */
export function manifestOf(name: string, contractsVersion: string | null = CONTRACTS_VERSION): string {
  const container = name.replace(/-/g, '_');
  return JSON.stringify({
    id: container,
    name: container,
    metaData: {
      name: container,
      globalName: container,
      buildInfo: { buildVersion: 'build-7', buildName: name },
      publicPath: 'auto',
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      types: { path: '', name: '', zip: '', api: '' },
      ...(contractsVersion === null ? {} : { contractsVersion }),
    },
    shared: [],
    remotes: [],
    exposes: [{ id: `${container}:Island`, name: 'Island', path: './Island', assets: { js: { sync: [], async: [] }, css: { sync: [], async: [] } } }],
  });
}

/** The module every fake container exposes. */
export const fakeIsland: IslandModule = { default: () => () => {} };

/** Answers `loadEntry` with a container exposing `./Island`, counting the entries loaded. */
export function fakeContainers(): ModuleFederationRuntimePlugin & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    name: 'test-fake-containers',
    loaded,
    loadEntry: async ({ remoteInfo }) => {
      loaded.push(remoteInfo.name);
      return { init: async () => {}, get: async () => () => fakeIsland } as never;
    },
  };
}

/**
 * A runtime with `plugins` and one remote `name` at a manifest URL of its own (the runtime caches
 * manifests by URL across instances).
 */
export function runtimeWith(name: string, plugins: ModuleFederationRuntimePlugin[]) {
  instances += 1;
  const entry = `http://remote${instances}.test/${name}/mf-manifest.json`;
  const instance = createInstance({
    name: `test_host_${instances}`,
    remotes: [{ name: name.replace(/-/g, '_'), alias: name, entry }],
    shared: {},
    plugins,
  });
  return { instance, entry };
}
