// Runtime plugin of the page's one federation host (the shell, a remote's standalone page): besides
// runtime-core (`provideExternalRuntime`), it provides the bundler runtime every remote container
// would otherwise carry itself (`@module-federation/webpack-bundler-runtime` with
// `@module-federation/runtime`, the sdk and the error texts: about 10 KB gzip per container).
// A remote built by this preset takes it from `globalThis[BUNDLER_RUNTIME_GLOBAL].create()`
// (see `bundlerRuntimeExternal` in index.mjs).
//
// The imports name the CommonJS files the federation plugin itself bundles into the host (it
// resolves the runtime with `require.resolve`), so the host keeps one copy, not a second ESM one.
import federation from '@module-federation/webpack-bundler-runtime/dist/index.cjs';
// A pure consumer's build drops `initContainerEntry` (no exposes of its own); containers need it.
import { initContainerEntry } from '@module-federation/webpack-bundler-runtime/dist/initContainerEntry.cjs';
import { BUNDLER_RUNTIME_GLOBAL } from './bundlerRuntimeGlobal.mjs';

/**
 * The runtime as a container sees it. Its `init` finds the container's instance by name (and
 * version), as the container's own copy did: the host's copy would first match the host's build
 * identifier (a compile-time constant of the host's build) and hand the container the host's
 * instance (RUNTIME-010, "the name option cannot be changed").
 */
const containerRuntime = {
  ...federation.runtime,
  init(options) {
    const normalized = { ...options, id: options.id || '' };
    const existing = federation.runtime.getInstance(
      (instance) => instance.options.name === options.name && (options.version ? instance.options.version === options.version : !instance.options.version),
    );
    if (!existing) return federation.runtime.createInstance(normalized);
    existing.initOptions(normalized);
    return existing;
  },
};

/**
 * A fresh bundler-runtime object for one container. The package's default export is one shared
 * object whose `bundlerRuntimeOptions` each build fills in (the host already did), so every
 * container gets its own copy of the mutable parts, as when it bundled its own.
 */
function createContainerFederation() {
  return {
    ...federation,
    runtime: containerRuntime,
    instance: undefined,
    initOptions: undefined,
    bundlerRuntime: { ...federation.bundlerRuntime, initContainerEntry, S: {} },
    bundlerRuntimeOptions: {},
  };
}

export default function provideBundlerRuntimePlugin() {
  return {
    name: 'khs-provide-bundler-runtime',
    beforeInit(args) {
      // The first host of the page provides it (a second one, e.g. a page embedding two hosts, keeps it).
      globalThis[BUNDLER_RUNTIME_GLOBAL] ??= { version: '2.9.2', create: createContainerFederation };
      return args;
    },
  };
}
