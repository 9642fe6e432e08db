import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMServer from 'react-dom/server';
import { createInstance, registerGlobalPlugins } from '@module-federation/enhanced/runtime';
import type { FederationRuntime } from './buildLoader.js';
import { fetchWithTimeout } from './fetchWithTimeout.js';
import { BuildFolders } from './plugins/buildFolders.js';
import { serverFetchPlugin } from './plugins/serverFetchPlugin.js';
import { withoutReplacementWarning } from './replacementWarning.js';

const REACT_VERSION = React.version;
const SINGLETON = { singleton: true, requiredVersion: `^${REACT_VERSION}` };

/**
 * Runs a server entry (`commonjs-module` container) the way the SDK's Node loader does, but from
 * a body fetched with a deadline and a status check (the SDK has neither).
 */
async function loadCommonJsEntry(url: string, globalName: string, fetchImpl: typeof fetch, timeoutMs: number): Promise<unknown> {
  const response = await fetchWithTimeout(fetchImpl, url, timeoutMs);
  const code = await response.text();
  const { pathname } = new URL(url);
  const filename = path.posix.basename(pathname);
  const script = new vm.Script(`(function(exports, module, require, __dirname, __filename) {${code}\n})`, {
    filename: url,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const scope = { exports: {} as Record<string, unknown>, module: { exports: {} as Record<string, unknown> } };
  const requireFn = createRequire(path.join(process.cwd(), '__mf_require_base__.js'));
  script.runInThisContext()(scope.exports, scope.module, requireFn, pathname.split('/').slice(0, -1).join('/'), filename);
  const exported = scope.module.exports ?? scope.exports;
  const container = (exported[globalName] as unknown) ?? exported;
  (globalThis as Record<string, unknown>)[globalName] = container;
  return container;
}

/**
 * Drops the federation instances a remote's earlier server builds created. The runtime's own
 * `removeRemote` finds them by the *new* manifest's build version only, so after a release whose
 * version differs (or a failed load in between) the old instance stays, the new container reuses
 * it, and the node runtime plugin never patches the new container's chunk loading: it then reads
 * chunks from the local disk (`ENOENT … /server/<chunk>.js`).
 */
function forgetRemoteInstances(containerNames: string[]): void {
  const federation = (globalThis as { __FEDERATION__?: { __INSTANCES__?: { name?: string }[] } }).__FEDERATION__;
  const instances = federation?.__INSTANCES__;
  if (!instances) return;
  for (let index = instances.length - 1; index >= 0; index -= 1) {
    if (containerNames.includes(instances[index]!.name ?? '')) instances.splice(index, 1);
  }
}

let created: FederationRuntime | undefined;

/**
 * The process's one federation instance (its state is global, a second one gives no isolation:
 * toolchain-notes, server-side federation §4/§8). Provides the shell's React, react-dom and
 * react-dom/server as singletons, and puts a deadline on every hop: manifest (instance `fetch`
 * hook), server entry (`loadEntry` hook) and the remotes' chunks (global `fetch` hook, which the
 * remotes' own runtimes use). Several builds of one remote may be loaded at once: each gets its
 * own federation instance and its chunks from its own folder.
 */
export function createFederationRuntime(options: { hopTimeoutMs: number; fetch?: typeof fetch }): FederationRuntime {
  if (created) return created;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.hopTimeoutMs;
  const folders = new BuildFolders();
  registerGlobalPlugins([serverFetchPlugin({ fetch: fetchImpl, timeoutMs, folders })]);
  const instance = createInstance({
    name: 'shell_server',
    remotes: [],
    shareStrategy: 'loaded-first',
    shared: {
      react: { version: REACT_VERSION, lib: () => React, shareConfig: SINGLETON },
      'react-dom': { version: REACT_VERSION, lib: () => ReactDOM, shareConfig: SINGLETON },
      'react-dom/server': { version: REACT_VERSION, lib: () => ReactDOMServer, shareConfig: SINGLETON },
    },
    plugins: [
      {
        name: 'khs-shell-server-entry',
        loadEntry: async ({ remoteInfo }) => {
          if (remoteInfo.type !== 'commonjs-module') return undefined;
          // Several builds of one remote may be loaded at once (the live one, a preview, a canary):
          // each container must create its own federation instance, not find the other build's.
          forgetRemoteInstances([remoteInfo.entryGlobalName]);
          folders.record(remoteInfo.entryGlobalName, remoteInfo.entry);
          return loadCommonJsEntry(remoteInfo.entry, remoteInfo.entryGlobalName, fetchImpl, timeoutMs) as never;
        },
      },
    ],
  });
  created = {
    registerRemotes: (remotes, registerOptions) => {
      if (!registerOptions?.force) return instance.registerRemotes(remotes, registerOptions);
      // A build replaced on purpose (deploy, rollback, rebuild): see withoutReplacementWarning.
      const names = remotes.map((remote) => remote.name);
      withoutReplacementWarning(names, () => instance.registerRemotes(remotes, registerOptions));
      forgetRemoteInstances(names);
    },
    loadRemote: (id) => instance.loadRemote(id),
  };
  return created;
}
