import { createHash } from 'node:crypto';
import { containerName, type IslandServerModule, type RemoteDefinition } from 'contracts';
import { buildVersionOf, fetchManifest, type ParsedManifest } from './manifest.js';
import { browserEntryUrl, needsRenderer, scriptsOf, stylesheetsOf } from './manifestAssets.js';
import { contractsCompatibilityPlugin } from './plugins/contractsCompatibilityPlugin.js';
import { delayedDisposePlugin } from './plugins/delayedDisposePlugin.js';
import { islandInterfacePlugin } from './plugins/islandInterfacePlugin.js';
import { newBuildLogPlugin } from './plugins/newBuildLogPlugin.js';
import { serverBuildRequiredPlugin } from './plugins/serverBuildRequiredPlugin.js';
import { startRevalidationTimer } from './revalidationTimer.js';
import type { LoadedBuild, ServerFederationPlugin } from './serverFederationPlugin.js';
import { ServerIslandError } from './serverIslandError.js';
import { isBuildVersion, versionManifestUrl } from './versionSelection.js';

export { ServerIslandError } from './serverIslandError.js';

/** The part of the Module Federation runtime instance the loader uses (a fake in unit tests). */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; alias?: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
}

export interface ServerFederationOptions {
  /** Remote names (`mf-search`) and manifest URLs, from the shell's configuration at run time. */
  remotes: RemoteDefinition[];
  runtime: FederationRuntime;
  /** Deadline of one manifest fetch. */
  hopTimeoutMs: number;
  /** A failed first manifest fetch is not retried sooner than this (a down origin is not hammered). Default 1000. */
  retryMs?: number;
  /** Old versions' `dispose()` runs this long after a swap, so renders still using them finish. Default 10 000. */
  disposeDelayMs?: number;
  /**
   * How many builds other than the live one (previews, a canary, pinned pages) stay loaded per
   * remote; past it the least recently used one that is not protected is released. Default 4.
   */
  maxPinnedVersions?: number;
  /** Versions of `remote` never evicted (its stable and canary builds, from the canary plugin). Default none. */
  protectedVersions?: (remote: string) => readonly string[];
  /**
   * Policies (`ServerFederationPlugin`). Default `defaultServerFederationPlugins()`: server build
   * required, contracts compatibility, island interface, delayed dispose, new-build log line.
   */
  plugins?: ServerFederationPlugin[];
  fetch?: typeof fetch;
  now?: () => number;
  log?: Pick<Console, 'error' | 'info'>;
}

/** The policies every shell runs (the order is the order of their checks). */
export function defaultServerFederationPlugins(options: { disposeDelayMs?: number; log?: Pick<Console, 'error' | 'info'> } = {}): ServerFederationPlugin[] {
  return [
    serverBuildRequiredPlugin(),
    contractsCompatibilityPlugin(),
    islandInterfacePlugin(),
    delayedDisposePlugin({ ...(options.disposeDelayMs !== undefined ? { delayMs: options.disposeDelayMs } : {}), ...(options.log ? { log: options.log } : {}) }),
    newBuildLogPlugin(options.log),
  ];
}

/** One build loaded into the runtime under its own registered name. */
interface Build extends LoadedBuild {
  modules: Map<string, Promise<IslandServerModule>>;
  /** The name the runtime knows this build by (the live build: the container's own name). */
  runtimeName: string;
  /** The manifest URL the runtime loads the build from. */
  entry: string;
  stylesheetCache: Map<string, string[]>;
  /** Its container ran and initialised (a module loaded once). */
  started: boolean;
  /** While it starts: what its first modules wait for (the builds of its remote that started before). */
  gate?: Promise<unknown>;
}

interface RemoteState {
  definition: RemoteDefinition;
  live?: Build;
  liveLoading?: Promise<ParsedManifest>;
  liveFailedAt?: number;
  registered: boolean;
  /** How many times a new build replaced the loaded one. */
  generation: number;
  /** The last manifest fetch (first load or revalidation), for the health view. */
  lastPoll?: { at: number; ok: boolean; error?: string };
  /** When the loaded manifest was first seen (first load or a swap). */
  changedAt?: number;
  /** Builds other than the live one, by build version, least recently used first. */
  pinned: Map<string, Promise<Build>>;
  /** Runtime names registered once (a later registration must force). */
  registeredNames: Set<string>;
  /**
   * Settles when the last build of this remote that started its container is done starting:
   * builds of one container start one at a time (each must create its own federation instance;
   * two starting at once would share one and load each other's chunks).
   */
  starting: Promise<unknown>;
}

/** What the loader knows of one remote: its manifest URL, the last poll, the build it renders with. */
export interface RemotePollState {
  remote: string;
  manifestUrl: string;
  /** The last manifest fetch; undefined before the first. `ok: false` keeps the loaded build. */
  lastPoll?: { at: number; ok: boolean; error?: string };
  /** `metaData.buildVersion` of the loaded manifest (else `buildInfo.buildVersion`). */
  buildVersion?: string;
  /** `metaData.contractsVersion` of the loaded manifest, when it has one. */
  contractsVersion?: string;
  /** When the loaded manifest was first seen (ms since the epoch). */
  changedAt?: number;
  /** `metaData.deployedAt`: when the origin was switched to this build (ISO date), if deployed by tooling/deploy. */
  deployedAt?: string;
  /** How many builds replaced the first one. */
  generation: number;
  /** URL of the loaded build's browser entry (`metaData.remoteEntry`). */
  browserEntryUrl?: string;
}

/** Loaded-version facts, for logs and tests. */
export interface RemoteVersion {
  remote: string;
  hash: string | undefined;
  generation: number;
}

/**
 * The shell server's side of Module Federation: loads the islands' server modules from the
 * remotes' manifests (configured URLs, at run time; never from the workspace), caches them, and
 * revalidates: when a remote's manifest changes (a redeploy), the next render uses the new build,
 * with no restart. Besides the live build, a request may ask for a given build version (a
 * preview, a canary side): it is loaded from `versions/<version>/mf-manifest.json` at the remote's
 * origin and kept among a bounded number of such builds. Policies (compatibility, interface
 * checks, disposal, logs) are `ServerFederationPlugin`s.
 */
export class ServerFederation {
  private readonly states = new Map<string, RemoteState>();
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly log: Pick<Console, 'error' | 'info'>;
  private readonly plugins: ServerFederationPlugin[];
  private stopTimer: (() => void) | undefined;

  constructor(private readonly options: ServerFederationOptions) {
    for (const definition of options.remotes) {
      this.states.set(definition.name, { definition, registered: false, generation: 0, pinned: new Map(), registeredNames: new Set(), starting: Promise.resolve() });
    }
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? Date.now;
    this.log = options.log ?? console;
    this.plugins =
      options.plugins ??
      defaultServerFederationPlugins({ log: this.log, ...(options.disposeDelayMs !== undefined ? { disposeDelayMs: options.disposeDelayMs } : {}) });
  }

  /** Polls every used remote's manifest every `intervalMs` (the timer does not keep the process alive). */
  startRevalidation(intervalMs: number, onError?: (remote: string, error: unknown) => void): void {
    this.stopRevalidation();
    this.stopTimer = startRevalidationTimer(() => this.revalidate(onError), intervalMs);
  }

  stopRevalidation(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }

  /** Stops polling and disposes every loaded version (process shutdown). */
  async close(): Promise<void> {
    this.stopRevalidation();
    for (const plugin of this.plugins) await plugin.close?.();
    const builds: Build[] = [];
    for (const state of this.states.values()) {
      if (state.live) builds.push(state.live);
      for (const pinned of state.pinned.values()) builds.push(...(await pinned.then((build) => [build]).catch(() => [])));
      state.pinned.clear();
    }
    await Promise.all(builds.map((build) => this.retire(build, true)));
  }

  /**
   * The server module `remote/module` (e.g. `mf-survey`, `Survey`): of the remote's live build,
   * or, with `version`, of that published build (the live one when it is that version).
   */
  load(remote: string, module: string, version?: string | null): Promise<IslandServerModule> {
    const state = this.states.get(remote);
    if (version && state && version !== buildVersionOf(state.live?.manifest)) return this.loadPinned(state, module, version);
    // Hot path (every island of every page): the cached module, without another async step.
    const cached = state?.live?.modules.get(module);
    return cached ?? this.loadLive(remote, module);
  }

  private async loadLive(remote: string, module: string): Promise<IslandServerModule> {
    const state = this.states.get(remote);
    if (!state) throw new ServerIslandError(remote, 'manifest', `no remote "${remote}" is configured`);
    if (!state.live) await this.firstManifest(state);
    const build = state.live!;
    this.checkBeforeLoad(remote, module, build.manifest);
    if (!state.registered) this.register(state, build);
    return this.moduleOf(build, module);
  }

  private async loadPinned(state: RemoteState, module: string, version: string): Promise<IslandServerModule> {
    if (!isBuildVersion(version)) throw new ServerIslandError(state.definition.name, 'manifest', `"${state.definition.name}": not a build version`);
    const build = await this.pinnedBuild(state, version);
    this.checkBeforeLoad(state.definition.name, module, build.manifest);
    return this.moduleOf(build, module);
  }

  /** The loaded build `version` of a remote (its manifest read and registered), loading it when needed. */
  private pinnedBuild(state: RemoteState, version: string): Promise<Build> {
    let loading = state.pinned.get(version);
    if (loading) {
      // Most recently used last.
      state.pinned.delete(version);
      state.pinned.set(version, loading);
      return loading;
    }
    const name = state.definition.name;
    const entry = versionManifestUrl(state.definition.entry, version);
    loading = fetchManifest(this.fetchImpl, name, entry, this.options.hopTimeoutMs).then((manifest) => {
      const build: Build = {
        remote: name,
        manifest,
        modules: new Map(),
        entry,
        // Its own name in the runtime: the live build keeps the container's name, each other build is registered beside it.
        runtimeName: `${containerName(name)}__v${createHash('sha256').update(version).digest('hex').slice(0, 12)}`,
        stylesheetCache: new Map(),
        started: false,
      };
      this.registerBuild(state, build);
      return build;
    });
    state.pinned.set(version, loading);
    const settling = loading;
    settling.then((build) => this.settled.set(settling, build)).catch(() => {});
    const pinned = state.pinned;
    // A failed build is not kept: the next request tries again (it may be published by then).
    loading.catch(() => {
      if (pinned.get(version) === loading) pinned.delete(version);
    });
    this.evictPinned(state);
    return loading;
  }

  /** Releases the least recently used builds beyond `maxPinnedVersions`, never a protected one. */
  private evictPinned(state: RemoteState): void {
    const limit = this.options.maxPinnedVersions ?? 4;
    if (state.pinned.size <= limit) return;
    const protectedVersions = new Set(this.options.protectedVersions?.(state.definition.name) ?? []);
    for (const [version, loading] of state.pinned) {
      if (state.pinned.size <= limit) break;
      if (protectedVersions.has(version)) continue;
      state.pinned.delete(version);
      loading.then((build) => this.retire(build, false)).catch(() => {});
    }
  }

  private checkBeforeLoad(remote: string, module: string, manifest: ParsedManifest): void {
    for (const plugin of this.plugins) plugin.beforeLoad?.({ remote, module, manifest });
  }

  private moduleOf(build: Build, module: string): Promise<IslandServerModule> {
    let loading = build.modules.get(module);
    if (!loading) {
      const modules = build.modules;
      const state = this.states.get(build.remote)!;
      if (build.started) {
        loading = this.loadModule(build, module);
      } else {
        // This build's modules load together, once the builds that started before are done starting.
        build.gate ??= state.starting;
        const gate = build.gate;
        loading = gate.then(() => this.loadModule(build, module));
        state.starting = Promise.allSettled([state.starting, loading]);
        loading.then(
          () => void (build.started = true),
          () => void (build.started || (build.gate = undefined)),
        );
      }
      modules.set(module, loading);
      // A failed load is not cached: the next render tries again (the origin may be back).
      loading.catch(() => {
        if (modules.get(module) === loading) modules.delete(module);
      });
    }
    return loading;
  }

  /**
   * Loads every exposed module of every remote (or of `remote`) now, so the first pages after a
   * start or a redeploy render within the budget instead of waiting for a cold load. Failures go
   * to `onError`; a later render tries again.
   */
  async preload(onError?: (remote: string, error: unknown) => void, remote?: string): Promise<void> {
    const states = [...this.states.values()].filter((state) => !remote || state.definition.name === remote);
    await Promise.all(
      states.map(async (state) => {
        const name = state.definition.name;
        try {
          if (!state.live) await this.firstManifest(state);
          // Only what the server build exposes (the browser build has more, e.g. its standalone page).
          const manifest = state.live!.manifest.json;
          const exposes = manifest.metaData?.serverExposes ?? (manifest.exposes ?? []).map((expose) => expose.name);
          await Promise.all(exposes.map((expose) => this.load(name, expose)));
        } catch (error) {
          onError?.(name, error);
        }
      }),
    );
  }

  /**
   * Loads every module the server build `version` of `remote` exposes now (a preview about to be
   * opened), so its first page renders within the budget. Rejects with the first failure.
   */
  async preloadVersion(remote: string, version: string): Promise<void> {
    const state = this.states.get(remote);
    if (!state) throw new ServerIslandError(remote, 'manifest', `no remote "${remote}" is configured`);
    if (!isBuildVersion(version)) throw new ServerIslandError(remote, 'manifest', `"${remote}": not a build version`);
    const build = version === buildVersionOf(state.live?.manifest) ? state.live! : await this.pinnedBuild(state, version);
    const manifest = build.manifest.json;
    const exposes = manifest.metaData?.serverExposes ?? (manifest.exposes ?? []).map((expose) => expose.name);
    await Promise.all(exposes.map((expose) => this.load(remote, expose, version)));
  }

  /** The manifest of the build `version` (or the live one) of `remote`, when it is loaded. */
  private manifestOf(remote: string, version?: string | null): ParsedManifest | undefined {
    const state = this.states.get(remote);
    if (!version || version === buildVersionOf(state?.live?.manifest)) return state?.live?.manifest;
    return this.settledPinned(state, version)?.manifest;
  }

  /** A pinned build already loaded (synchronous readers: assets of a page being rendered). */
  private readonly settled = new WeakMap<Promise<Build>, Build>();

  private settledPinned(state: RemoteState | undefined, version: string): Build | undefined {
    const loading = state?.pinned.get(version);
    return loading ? this.settled.get(loading) : undefined;
  }

  /** Stylesheet URLs the browser build of `remote/module` (live, or at `version`) needs (from the manifest), for `<link>`s. */
  stylesheets(remote: string, module: string, version?: string | null): string[] {
    const manifest = this.manifestOf(remote, version);
    if (!manifest) return [];
    const build = this.buildOf(remote, version);
    const key = `${module}\n${manifest.hash}`;
    let urls = build?.stylesheetCache.get(key);
    if (!urls) {
      urls = stylesheetsOf(manifest, module);
      build?.stylesheetCache.set(key, urls);
    }
    return urls;
  }

  private buildOf(remote: string, version?: string | null): Build | undefined {
    const state = this.states.get(remote);
    if (!version || version === buildVersionOf(state?.live?.manifest)) return state?.live;
    return this.settledPinned(state, version);
  }

  /**
   * Script URLs the browser build of `remote` (live, or at `version`) loads for `modules` (their
   * expose chunks, from the manifest), plus the files of its shared React renderer when one of
   * those modules needs it as it loads (its `requires` names the renderer; a build whose manifest
   * does not say is taken to need it, as every island did before): for preload hints of a first
   * view. Islands bound without a framework get no renderer preloaded. Empty while the manifest is not loaded.
   */
  scripts(remote: string, modules: readonly string[], version?: string | null): string[] {
    const manifest = this.manifestOf(remote, version);
    return manifest ? scriptsOf(manifest, modules) : [];
  }

  /**
   * Whether one of `modules` of `remote` needs the shared React renderer as it loads (its
   * manifest's `requires` names it, or does not say). True while the manifest is not loaded.
   */
  needsRenderer(remote: string, modules: readonly string[], version?: string | null): boolean {
    return needsRenderer(this.manifestOf(remote, version), modules);
  }

  /** How many builds of `remote` replaced its first one (part of cache keys of its renders). */
  generation(remote: string): number {
    return this.states.get(remote)?.generation ?? 0;
  }

  /** A key of the build a render of `remote` used (live: its generation; else the version): render cache keys. */
  buildKey(remote: string, version?: string | null): string {
    const state = this.states.get(remote);
    return !version || version === buildVersionOf(state?.live?.manifest) ? `live ${this.generation(remote)}` : `version ${version}`;
  }

  /** URL of the browser entry of `remote`'s loaded build (or of `version`); undefined before its manifest is loaded. */
  browserEntryUrl(remote: string, version?: string | null): string | undefined {
    const manifest = this.manifestOf(remote, version);
    return manifest ? browserEntryUrl(manifest) : undefined;
  }

  /**
   * The manifest URL the browser must load to run the build a page rendered `remote` with: the
   * live build's own folder (`versions/<buildVersion>/mf-manifest.json`, so a deploy after the
   * page was served does not change what it loads), or that of `version`. Undefined before the
   * live manifest is loaded, or when it states no build version.
   */
  pinnedManifestUrl(remote: string, version?: string | null): string | undefined {
    const state = this.states.get(remote);
    const chosen = version ?? buildVersionOf(state?.live?.manifest);
    return state && chosen ? versionManifestUrl(state.definition.entry, chosen) : undefined;
  }

  /**
   * The live build's version of `remote` when a page may pin it: its manifest was switched by
   * tooling/deploy (`metaData.deployedAt`), so the build's own folder `versions/<buildVersion>/`
   * is at the origin. Undefined before the live manifest is loaded, or for an origin that serves a
   * build directly (a remote's own `serve`, a dev server): pages then read the live manifest.
   */
  pinnableLiveVersion(remote: string): string | undefined {
    const manifest = this.states.get(remote)?.live?.manifest;
    return typeof manifest?.json.metaData?.deployedAt === 'string' ? buildVersionOf(manifest) : undefined;
  }

  /** Build versions other than the live one loaded now for `remote`, least recently used first. */
  pinnedVersions(remote: string): string[] {
    return [...(this.states.get(remote)?.pinned.keys() ?? [])];
  }

  /** Read-only: each remote's manifest URL, last poll and loaded build (the health view, entry preloads). */
  pollStates(): RemotePollState[] {
    return [...this.states.values()].map((state) => {
      const metaData = state.live?.manifest.json.metaData;
      return {
        remote: state.definition.name,
        manifestUrl: state.definition.entry,
        ...(state.lastPoll ? { lastPoll: { ...state.lastPoll } } : {}),
        ...(metaData ? { buildVersion: buildVersionOf(state.live!.manifest) } : {}),
        ...(metaData?.contractsVersion ? { contractsVersion: metaData.contractsVersion } : {}),
        ...(state.changedAt !== undefined ? { changedAt: state.changedAt } : {}),
        ...(typeof metaData?.deployedAt === 'string' ? { deployedAt: metaData.deployedAt } : {}),
        generation: state.generation,
        ...(state.live ? { browserEntryUrl: browserEntryUrl(state.live.manifest) } : {}),
      };
    });
  }

  /** The build each remote currently renders with. */
  versions(): RemoteVersion[] {
    return [...this.states.values()].map((state) => ({
      remote: state.definition.name,
      hash: state.live?.manifest.hash,
      generation: state.generation,
    }));
  }

  /**
   * Fetches every used remote's manifest once; a changed one replaces the loaded build
   * (`registerRemotes(…, { force: true })` clears the runtime's caches for it). A failed fetch
   * keeps the loaded build.
   */
  async revalidate(onError?: (remote: string, error: unknown) => void): Promise<void> {
    await Promise.all(
      [...this.states.values()]
        .filter((state) => state.registered)
        .map(async (state) => {
          let fresh: ParsedManifest;
          try {
            fresh = await this.fetchLiveManifest(state);
          } catch (error) {
            onError?.(state.definition.name, error);
            return;
          }
          if (fresh.hash === state.live?.manifest.hash) return;
          this.swap(state, fresh);
          // Warm the new build up before pages need it (not awaited: polling never waits on a load).
          void this.preload(onError, state.definition.name);
        }),
    );
  }

  private swap(state: RemoteState, fresh: ParsedManifest): void {
    const old = state.live;
    state.live = this.liveBuild(state, fresh);
    state.changedAt = this.now();
    state.generation += 1;
    this.register(state, state.live);
    for (const plugin of this.plugins) plugin.liveBuildChanged?.({ remote: state.definition.name, previous: old?.manifest, fresh });
    // Renders that started with the old build may still be running: its plugins release it later.
    if (old) void this.retire(old, false);
  }

  private liveBuild(state: RemoteState, manifest: ParsedManifest): Build {
    const { name, entry } = state.definition;
    return { remote: name, manifest, modules: new Map(), runtimeName: containerName(name), entry, stylesheetCache: new Map(), started: false };
  }

  private async retire(build: Build, closing: boolean): Promise<void> {
    for (const plugin of this.plugins) {
      try {
        await plugin.buildRetired?.({ build, closing });
      } catch (error) {
        this.log.error(`[shell] plugin ${plugin.name} failed to release a build of "${build.remote}"`, error);
      }
    }
  }

  private register(state: RemoteState, build: Build): void {
    this.registerBuild(state, build, state.definition.name);
    state.registered = true;
  }

  private registerBuild(state: RemoteState, build: Build, alias?: string): void {
    const force = state.registeredNames.has(build.runtimeName);
    this.options.runtime.registerRemotes([{ name: build.runtimeName, ...(alias ? { alias } : {}), entry: build.entry }], { force });
    state.registeredNames.add(build.runtimeName);
  }

  private async firstManifest(state: RemoteState): Promise<void> {
    const retryMs = this.options.retryMs ?? 1000;
    if (state.liveFailedAt !== undefined && this.now() - state.liveFailedAt < retryMs) {
      throw new ServerIslandError(state.definition.name, 'manifest', `manifest of "${state.definition.name}" failed less than ${retryMs} ms ago`);
    }
    state.liveLoading ??= this.fetchLiveManifest(state).finally(() => (state.liveLoading = undefined));
    try {
      const manifest = await state.liveLoading;
      if (!state.live) {
        state.live = this.liveBuild(state, manifest);
        state.changedAt = this.now();
      }
      state.liveFailedAt = undefined;
    } catch (error) {
      state.liveFailedAt = this.now();
      throw error;
    }
  }

  private async fetchLiveManifest(state: RemoteState): Promise<ParsedManifest> {
    try {
      const manifest = await fetchManifest(this.fetchImpl, state.definition.name, state.definition.entry, this.options.hopTimeoutMs);
      state.lastPoll = { at: this.now(), ok: true };
      return manifest;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      state.lastPoll = { at: this.now(), ok: false, error: String((cause as Error)?.message ?? cause).slice(0, 300) };
      throw error;
    }
  }

  private async loadModule(build: Build, module: string): Promise<IslandServerModule> {
    const name = build.remote;
    let loaded: IslandServerModule | null;
    let timer: NodeJS.Timeout | undefined;
    // Every hop has its own deadline; this one bounds the whole load, so a load that never settles
    // (whatever the cause) is dropped from the cache instead of failing every later render.
    const deadlineMs = this.options.hopTimeoutMs * 4;
    try {
      loaded = await Promise.race([
        this.options.runtime.loadRemote<IslandServerModule>(`${build.runtimeName}/${module}`),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`not loaded within ${deadlineMs} ms`)), deadlineMs);
        }),
      ]);
    } catch (error) {
      const timedOut = (error as Error)?.message === `not loaded within ${deadlineMs} ms`;
      throw new ServerIslandError(name, 'load', `"${name}/${module}": ${(error as Error)?.message ?? error}`, {
        cause: error,
        ...(timedOut ? { code: 'KHS-ISLAND-003' as const } : {}),
      });
    } finally {
      clearTimeout(timer);
    }
    for (const plugin of this.plugins) plugin.afterLoad?.({ remote: name, module, loaded });
    return loaded!;
  }
}
