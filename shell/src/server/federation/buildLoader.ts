// The loader: registers builds of the remotes with the Module Federation runtime and loads their
// server modules, under the policies (`ServerFederationPlugin`s). It knows nothing of which build
// is live or which others are kept: `LiveBuild` and `ExtraBuilds` decide that and call it.
import type { IslandServerModule } from 'contracts';
import type { ParsedManifest } from './manifest.js';
import type { LoadedBuild, ServerFederationPlugin } from './serverFederationPlugin.js';
import { ServerIslandError } from './serverIslandError.js';

/** The part of the Module Federation runtime instance the loader uses (a fake in unit tests). */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; alias?: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
}

/** One build loaded into the runtime under its own registered name. */
export interface Build extends LoadedBuild {
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

/** A build of `remote` from `manifest`, registered under `runtimeName`, nothing loaded yet. */
export function newBuild(remote: string, manifest: ParsedManifest, runtimeName: string, entry: string): Build {
  return { remote, manifest, modules: new Map(), runtimeName, entry, stylesheetCache: new Map(), started: false };
}

export interface BuildLoaderOptions {
  runtime: FederationRuntime;
  /** Deadline of one hop; a whole module load is bounded by four of them. */
  hopTimeoutMs: number;
  plugins: ServerFederationPlugin[];
  log: Pick<Console, 'error' | 'info'>;
}

export class BuildLoader {
  /** Runtime names registered once (a later registration must force). */
  private readonly registeredNames = new Set<string>();
  /**
   * Per remote: settles when the last build of it that started its container is done starting.
   * Builds of one container start one at a time (each must create its own federation instance;
   * two starting at once would share one and load each other's chunks).
   */
  private readonly starting = new Map<string, Promise<unknown>>();

  constructor(private readonly options: BuildLoaderOptions) {}

  /** Registers `build` with the runtime (replacing what was registered under its name). */
  register(build: Build, alias?: string): void {
    const force = this.registeredNames.has(build.runtimeName);
    this.options.runtime.registerRemotes([{ name: build.runtimeName, ...(alias ? { alias } : {}), entry: build.entry }], { force });
    this.registeredNames.add(build.runtimeName);
  }

  /** Runs the plugins' checks of a build before one of its modules loads (they throw to refuse it). */
  checkBeforeLoad(remote: string, module: string, manifest: ParsedManifest): void {
    for (const plugin of this.options.plugins) plugin.beforeLoad?.({ remote, module, manifest });
  }

  /** Tells the plugins a remote's live build was replaced. */
  liveBuildChanged(remote: string, previous: ParsedManifest | undefined, fresh: ParsedManifest): void {
    for (const plugin of this.options.plugins) plugin.liveBuildChanged?.({ remote, previous, fresh });
  }

  /** The module `module` of `build`, loading it when needed (a failed load is not kept). */
  moduleOf(build: Build, module: string): Promise<IslandServerModule> {
    let loading = build.modules.get(module);
    if (!loading) {
      const modules = build.modules;
      if (build.started) {
        loading = this.loadModule(build, module);
      } else {
        // This build's modules load together, once the builds that started before are done starting.
        const starting = this.starting.get(build.remote) ?? Promise.resolve();
        build.gate ??= starting;
        const gate = build.gate;
        loading = gate.then(() => this.loadModule(build, module));
        this.starting.set(build.remote, Promise.allSettled([starting, loading]));
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

  /** New renders no longer use `build`: the plugins release it (at once when `closing`). */
  async retire(build: Build, closing: boolean): Promise<void> {
    for (const plugin of this.options.plugins) {
      try {
        await plugin.buildRetired?.({ build, closing });
      } catch (error) {
        this.options.log.error(`[shell] plugin ${plugin.name} failed to release a build of "${build.remote}"`, error);
      }
    }
  }

  /** Closes the plugins (their timers). */
  async close(): Promise<void> {
    for (const plugin of this.options.plugins) await plugin.close?.();
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
    for (const plugin of this.options.plugins) plugin.afterLoad?.({ remote: name, module, loaded });
    return loaded!;
  }
}
