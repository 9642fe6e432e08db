import { createHash } from 'node:crypto';
import {
  ISLAND_API_VERSION,
  SERVER_ISLAND_STAGE_CODES,
  containerName,
  contractsCompatibility,
  type IslandErrorCode,
  type IslandServerModule,
  type ServerIslandStage,
  type RemoteDefinition,
} from 'contracts';
import { fetchWithTimeout } from './fetchWithTimeout.js';

/** The part of the Module Federation runtime instance the loader uses (a fake in unit tests). */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; alias?: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
}

/** A failure of one remote on the server, with the stage it happened in and its stable code. */
export class ServerIslandError extends Error {
  readonly code: IslandErrorCode;

  constructor(
    readonly remote: string,
    readonly stage: ServerIslandStage,
    message: string,
    options?: { cause?: unknown; code?: IslandErrorCode },
  ) {
    super(message, options);
    this.name = 'ServerIslandError';
    this.code = options?.code ?? SERVER_ISLAND_STAGE_CODES[stage];
  }
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
  fetch?: typeof fetch;
  now?: () => number;
  log?: Pick<Console, 'error' | 'info'>;
}

interface ParsedManifest {
  /** sha-256 of the manifest body: a new build writes a new manifest. */
  hash: string;
  url: string;
  json: ManifestJson;
}

interface ManifestJson {
  metaData?: {
    publicPath?: string;
    buildInfo?: { buildVersion?: string };
    /** The deployed build's version (written by tooling/rspack-preset, used by tooling/deploy). */
    buildVersion?: string;
    /** When tooling/deploy switched the origin to this build (ISO date). */
    deployedAt?: string;
    /** The browser entry, beside the manifest unless `path` says otherwise (a deployed version's folder). */
    remoteEntry?: { path?: string; name?: string };
    ssrRemoteEntry?: { name?: string };
    /** The contracts version the remote was built against (written by tooling/rspack-preset). */
    contractsVersion?: string;
    /** Names of the modules the server build exposes (written by tooling/rspack-preset). */
    serverExposes?: string[];
  };
  /**
   * `requires`: the shared modules the expose needs as it loads (written by tooling/rspack-preset;
   * absent in builds before it).
   */
  exposes?: { name: string; assets?: ManifestAssets; requires?: string[] }[];
  /** The modules the build shares (React), with the files that provide them. */
  shared?: { name: string; assets?: ManifestAssets }[];
}

interface ManifestAssets {
  css?: { sync?: string[]; async?: string[] };
  js?: { sync?: string[]; async?: string[] };
}

/** The shared module a React island hydrates with: by far the largest file of a first view. */
const RENDERER_SHARE = 'react-dom/client';
/** The expose of a remote's standalone page (tooling/rspack-preset): never an island of the site. */
const STANDALONE_EXPOSE = 'Standalone';

interface RemoteState {
  definition: RemoteDefinition;
  manifest?: ParsedManifest;
  manifestLoading?: Promise<ParsedManifest>;
  manifestFailedAt?: number;
  registered: boolean;
  /** How many times a new build replaced the loaded one. */
  generation: number;
  modules: Map<string, Promise<IslandServerModule>>;
  /** Stylesheet URLs per module and manifest hash. */
  stylesheetCache: Map<string, string[]>;
  /** The last manifest fetch (first load or revalidation), for the health view. */
  lastPoll?: { at: number; ok: boolean; error?: string };
  /** When the loaded manifest was first seen (first load or a swap). */
  changedAt?: number;
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
 * with no restart. The old build's `dispose()` runs a little later.
 */
export class ServerFederation {
  private readonly states = new Map<string, RemoteState>();
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly log: Pick<Console, 'error' | 'info'>;
  private readonly disposeTimers = new Set<NodeJS.Timeout>();
  private pollTimer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(private readonly options: ServerFederationOptions) {
    for (const definition of options.remotes) {
      this.states.set(definition.name, { definition, registered: false, generation: 0, modules: new Map(), stylesheetCache: new Map() });
    }
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? Date.now;
    this.log = options.log ?? console;
  }

  /** Polls every used remote's manifest every `intervalMs` (the timer does not keep the process alive). */
  startRevalidation(intervalMs: number, onError?: (remote: string, error: unknown) => void): void {
    this.stopRevalidation();
    this.pollTimer = setInterval(() => {
      this.polling ??= this.revalidate(onError).finally(() => (this.polling = undefined));
    }, intervalMs);
    this.pollTimer.unref();
  }

  stopRevalidation(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Stops polling and disposes every loaded version (process shutdown). */
  async close(): Promise<void> {
    this.stopRevalidation();
    for (const timer of this.disposeTimers) clearTimeout(timer);
    this.disposeTimers.clear();
    await Promise.all([...this.states.values()].map((state) => disposeAll(state.modules, this.log)));
  }

  /** The server module `remote/module` (e.g. `mf-survey`, `Survey`) of the remote's current build. */
  load(remote: string, module: string): Promise<IslandServerModule> {
    // Hot path (every island of every page): the cached module, without another async step.
    const cached = this.states.get(remote)?.modules.get(module);
    return cached ?? this.loadSlow(remote, module);
  }

  private async loadSlow(remote: string, module: string): Promise<IslandServerModule> {
    const state = this.states.get(remote);
    if (!state) throw new ServerIslandError(remote, 'manifest', `no remote "${remote}" is configured`);
    if (!state.manifest) await this.firstManifest(state);
    if (!state.manifest!.json.metaData?.ssrRemoteEntry?.name) {
      // Never run a browser build in the server process.
      throw new ServerIslandError(remote, 'manifest', `the manifest of "${remote}" names no server build (metaData.ssrRemoteEntry)`);
    }
    // Never run a build made against contracts this shell does not speak (another major, or unknown).
    const compatibility = contractsCompatibility(state.manifest!.json.metaData?.contractsVersion);
    if (!compatibility.compatible) {
      throw new ServerIslandError(remote, 'compatibility', `"${remote}" refused: ${compatibility.reason}`);
    }
    if (!state.registered) {
      this.register(state, false);
    }
    let loading = state.modules.get(module);
    if (!loading) {
      const modules = state.modules;
      loading = this.loadModule(state, module);
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
          if (!state.manifest) await this.firstManifest(state);
          // Only what the server build exposes (the browser build has more, e.g. its standalone page).
          const manifest = state.manifest!.json;
          const exposes = manifest.metaData?.serverExposes ?? (manifest.exposes ?? []).map((expose) => expose.name);
          await Promise.all(exposes.map((expose) => this.load(name, expose)));
        } catch (error) {
          onError?.(name, error);
        }
      }),
    );
  }

  /** Stylesheet URLs the browser build of `remote/module` needs (from the manifest), for `<link>`s. */
  stylesheets(remote: string, module: string): string[] {
    const state = this.states.get(remote);
    const key = `${module}\n${state?.manifest?.hash}`;
    let urls = state?.stylesheetCache.get(key);
    if (!urls) {
      urls = this.computeStylesheets(remote, module);
      state?.stylesheetCache.set(key, urls);
    }
    return urls;
  }

  private computeStylesheets(remote: string, module: string): string[] {
    const manifest = this.states.get(remote)?.manifest;
    const expose = manifest?.json.exposes?.find((candidate) => candidate.name === module);
    if (!manifest || !expose) return [];
    const publicPath = manifest.json.metaData?.publicPath;
    const base = publicPath && publicPath !== 'auto' ? new URL(publicPath, manifest.url).href : new URL('./', manifest.url).href;
    // A remote's standalone page (its `Standalone` expose) is no island of the site: a stylesheet
    // only it needs is never linked, even when the manifest lists it among another expose's lazy ones.
    const exposes = manifest.json.exposes ?? [];
    const standaloneOnly = new Set(exposes.find((candidate) => candidate.name === STANDALONE_EXPOSE)?.assets?.css?.sync ?? []);
    for (const other of exposes) if (other.name !== STANDALONE_EXPOSE) for (const file of other.assets?.css?.sync ?? []) standaloneOnly.delete(file);
    const css = [...(expose.assets?.css?.sync ?? []), ...(expose.assets?.css?.async ?? [])].filter((file) => module === STANDALONE_EXPOSE || !standaloneOnly.has(file));
    return [...new Set(css)].map((file) => new URL(file, base).href);
  }

  /**
   * Script URLs the browser build of `remote` loads for `modules` (their expose chunks, from the
   * manifest), plus the files of its shared React renderer when one of those modules needs it as
   * it loads (its `requires` names the renderer; a build whose manifest does not say is taken to
   * need it, as every island did before): for preload hints of a first view. Islands bound
   * without a framework get no renderer preloaded. Empty while the manifest is not loaded.
   */
  scripts(remote: string, modules: readonly string[]): string[] {
    const manifest = this.states.get(remote)?.manifest;
    if (!manifest) return [];
    const exposes = (manifest.json.exposes ?? []).filter((expose) => modules.includes(expose.name));
    const files = exposes.flatMap((expose) => expose.assets?.js?.sync ?? []);
    if (this.needsRenderer(remote, modules)) {
      files.push(...(manifest.json.shared?.find((share) => share.name === RENDERER_SHARE)?.assets?.js?.sync ?? []));
    }
    const base = this.assetBase(manifest);
    return [...new Set(files)].map((file) => new URL(file, base).href);
  }

  /**
   * Whether one of `modules` of `remote` needs the shared React renderer as it loads (its
   * manifest's `requires` names it, or does not say). True while the manifest is not loaded.
   */
  needsRenderer(remote: string, modules: readonly string[]): boolean {
    const manifest = this.states.get(remote)?.manifest;
    if (!manifest) return true;
    return (manifest.json.exposes ?? [])
      .filter((expose) => modules.includes(expose.name))
      .some((expose) => expose.requires === undefined || expose.requires.includes(RENDERER_SHARE));
  }

  /** Where a manifest's files are: its `publicPath`, or (`auto`) next to the manifest. */
  private assetBase(manifest: ParsedManifest): string {
    const publicPath = manifest.json.metaData?.publicPath;
    return publicPath && publicPath !== 'auto' ? new URL(publicPath, manifest.url).href : new URL('./', manifest.url).href;
  }

  /** How many builds of `remote` replaced its first one (part of cache keys of its renders). */
  generation(remote: string): number {
    return this.states.get(remote)?.generation ?? 0;
  }

  /** URL of the browser entry of `remote`'s loaded build (for a preload); undefined before its manifest is loaded. */
  browserEntryUrl(remote: string): string | undefined {
    const manifest = this.states.get(remote)?.manifest;
    return manifest ? browserEntryUrl(manifest) : undefined;
  }

  /** Read-only: each remote's manifest URL, last poll and loaded build (the health view, entry preloads). */
  pollStates(): RemotePollState[] {
    return [...this.states.values()].map((state) => {
      const metaData = state.manifest?.json.metaData;
      return {
        remote: state.definition.name,
        manifestUrl: state.definition.entry,
        ...(state.lastPoll ? { lastPoll: { ...state.lastPoll } } : {}),
        ...(metaData ? { buildVersion: metaData.buildVersion ?? metaData.buildInfo?.buildVersion } : {}),
        ...(metaData?.contractsVersion ? { contractsVersion: metaData.contractsVersion } : {}),
        ...(state.changedAt !== undefined ? { changedAt: state.changedAt } : {}),
        ...(typeof metaData?.deployedAt === 'string' ? { deployedAt: metaData.deployedAt } : {}),
        generation: state.generation,
        ...(state.manifest ? { browserEntryUrl: browserEntryUrl(state.manifest) } : {}),
      };
    });
  }

  /** The build each remote currently renders with. */
  versions(): RemoteVersion[] {
    return [...this.states.values()].map((state) => ({
      remote: state.definition.name,
      hash: state.manifest?.hash,
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
            fresh = await this.fetchManifest(state);
          } catch (error) {
            onError?.(state.definition.name, error);
            return;
          }
          if (fresh.hash === state.manifest?.hash) return;
          this.swap(state, fresh);
          // Warm the new build up before pages need it (not awaited: polling never waits on a load).
          void this.preload(onError, state.definition.name);
        }),
    );
  }

  private swap(state: RemoteState, fresh: ParsedManifest): void {
    const old = state.modules;
    state.manifest = fresh;
    state.changedAt = this.now();
    state.modules = new Map();
    state.stylesheetCache = new Map();
    state.generation += 1;
    this.register(state, true);
    this.log.info?.(
      `[shell] remote "${state.definition.name}" has a new build (${fresh.json.metaData?.buildVersion ?? fresh.json.metaData?.buildInfo?.buildVersion ?? 'unknown version'}, manifest ${fresh.hash.slice(0, 12)}); the next pages render with it`,
    );
    // Renders that started with the old build may still be running: release its resources later.
    const timer = setTimeout(() => {
      this.disposeTimers.delete(timer);
      void disposeAll(old, this.log);
    }, this.options.disposeDelayMs ?? 10_000);
    timer.unref();
    this.disposeTimers.add(timer);
  }

  private register(state: RemoteState, force: boolean): void {
    const { name, entry } = state.definition;
    this.options.runtime.registerRemotes([{ name: containerName(name), alias: name, entry }], { force });
    state.registered = true;
  }

  private async firstManifest(state: RemoteState): Promise<void> {
    const retryMs = this.options.retryMs ?? 1000;
    if (state.manifestFailedAt !== undefined && this.now() - state.manifestFailedAt < retryMs) {
      throw new ServerIslandError(state.definition.name, 'manifest', `manifest of "${state.definition.name}" failed less than ${retryMs} ms ago`);
    }
    state.manifestLoading ??= this.fetchManifest(state).finally(() => (state.manifestLoading = undefined));
    try {
      const manifest = await state.manifestLoading;
      if (!state.manifest) {
        state.manifest = manifest;
        state.changedAt = this.now();
      }
      state.manifestFailedAt = undefined;
    } catch (error) {
      state.manifestFailedAt = this.now();
      throw error;
    }
  }

  private async fetchManifest(state: RemoteState): Promise<ParsedManifest> {
    const { name, entry } = state.definition;
    try {
      const response = await fetchWithTimeout(this.fetchImpl, entry, this.options.hopTimeoutMs, { cache: 'no-store' });
      const body = await response.text();
      const json = JSON.parse(body) as ManifestJson;
      state.lastPoll = { at: this.now(), ok: true };
      return { hash: createHash('sha256').update(body).digest('hex'), url: entry, json };
    } catch (error) {
      state.lastPoll = { at: this.now(), ok: false, error: String((error as Error)?.message ?? error).slice(0, 300) };
      throw new ServerIslandError(name, 'manifest', `manifest of "${name}": ${(error as Error)?.message ?? error}`, { cause: error });
    }
  }

  private async loadModule(state: RemoteState, module: string): Promise<IslandServerModule> {
    const name = state.definition.name;
    let loaded: IslandServerModule | null;
    let timer: NodeJS.Timeout | undefined;
    // Every hop has its own deadline; this one bounds the whole load, so a load that never settles
    // (whatever the cause) is dropped from the cache instead of failing every later render.
    const deadlineMs = this.options.hopTimeoutMs * 4;
    try {
      loaded = await Promise.race([
        this.options.runtime.loadRemote<IslandServerModule>(`${containerName(name)}/${module}`),
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
    if (!loaded || typeof loaded.render !== 'function') {
      throw new ServerIslandError(name, 'load', `"${name}/${module}" has no server render`, { code: 'KHS-ISLAND-006' });
    }
    if (loaded.islandApiVersion !== ISLAND_API_VERSION) {
      throw new ServerIslandError(
        name,
        'version',
        `"${name}/${module}" speaks island interface ${String(loaded.islandApiVersion)}; this shell renders ${ISLAND_API_VERSION}`,
      );
    }
    return loaded;
  }
}

/** Where the manifest's browser entry is (`publicPath: auto`: relative to the manifest). */
function browserEntryUrl(manifest: ParsedManifest): string | undefined {
  const { publicPath, remoteEntry } = manifest.json.metaData ?? {};
  if (!remoteEntry?.name) return undefined;
  const base = publicPath && publicPath !== 'auto' ? new URL(publicPath, manifest.url).href : new URL('./', manifest.url).href;
  const folder = (remoteEntry.path ?? '').replace(/^\.?\//, '');
  return new URL(`${folder && !folder.endsWith('/') ? `${folder}/` : folder}${remoteEntry.name}`, base).href;
}

async function disposeAll(modules: Map<string, Promise<IslandServerModule>>, log: Pick<Console, 'error'>): Promise<void> {
  const loaded = await Promise.all([...modules.values()].map((loading) => loading.catch(() => undefined)));
  // Several exposes of one build may share one resource: each dispose runs once.
  const disposers = new Set(loaded.map((module) => module?.dispose).filter((dispose) => typeof dispose === 'function'));
  for (const dispose of disposers) {
    try {
      await dispose!();
    } catch (error) {
      log.error('[shell] an old remote build failed to dispose', error);
    }
  }
}
