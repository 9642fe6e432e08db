import type { IslandServerModule, RemoteDefinition } from 'contracts';
import { BuildLoader, type Build, type FederationRuntime } from './buildLoader.js';
import { ExtraBuilds } from './extraBuilds.js';
import { LiveBuild, type RemotePollState } from './liveBuild.js';
import { buildVersionOf, serverExposesOf } from './manifest.js';
import { browserEntryUrl, needsRenderer, scriptsOf, stylesheetsOf } from './manifestAssets.js';
import { defaultServerFederationPlugins } from './plugins/defaultPlugins.js';
import { startRevalidationTimer } from './revalidationTimer.js';
import type { ServerFederationPlugin } from './serverFederationPlugin.js';
import { ServerIslandError } from './serverIslandError.js';
import { versionManifestUrl } from './versionSelection.js';

export { ServerIslandError } from './serverIslandError.js';
export type { FederationRuntime } from './buildLoader.js';
export type { RemotePollState } from './liveBuild.js';
export { defaultServerFederationPlugins } from './plugins/defaultPlugins.js';

export interface ServerFederationOptions {
  /** Remote names and manifest URLs, from the shell's configuration at run time. */
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

/** One remote: its live build and the store of its other builds. */
interface Remote {
  live: LiveBuild;
  extra: ExtraBuilds;
}

/** Loaded-version facts, for logs and tests. */
export interface RemoteVersion {
  remote: string;
  hash: string | undefined;
  generation: number;
}

/** Told of a manifest poll that failed while the loaded build of `remote` (`loadedVersion`, when its manifest names one) goes on rendering. */
export type PollFailedListener = (remote: string, error: unknown, loadedVersion: string | undefined) => void;

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
  private readonly remotes = new Map<string, Remote>();
  private readonly loader: BuildLoader;
  private stopTimer: (() => void) | undefined;

  constructor(options: ServerFederationOptions) {
    const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const now = options.now ?? Date.now;
    const log = options.log ?? console;
    const plugins =
      options.plugins ?? defaultServerFederationPlugins({ log, ...(options.disposeDelayMs !== undefined ? { disposeDelayMs: options.disposeDelayMs } : {}) });
    this.loader = new BuildLoader({ runtime: options.runtime, hopTimeoutMs: options.hopTimeoutMs, plugins, log });
    for (const definition of options.remotes) {
      const live = new LiveBuild(definition, { loader: this.loader, fetch: fetchImpl, now, hopTimeoutMs: options.hopTimeoutMs, retryMs: options.retryMs ?? 1000 });
      const extra = new ExtraBuilds(definition, {
        loader: this.loader,
        fetch: fetchImpl,
        hopTimeoutMs: options.hopTimeoutMs,
        maxBuilds: options.maxPinnedVersions ?? 4,
        protectedVersions: () => options.protectedVersions?.(definition.name) ?? [],
        beforeFirstStart: () => live.start(),
      });
      this.remotes.set(definition.name, { live, extra });
    }
  }

  /**
   * Polls every used remote's manifest every `intervalMs` (the timer does not keep the process
   * alive). `onError` and `onPollFailed` as for {@link revalidate}.
   */
  startRevalidation(intervalMs: number, onError?: (remote: string, error: unknown) => void, onPollFailed?: PollFailedListener): void {
    this.stopRevalidation();
    this.stopTimer = startRevalidationTimer(() => this.revalidate(onError, onPollFailed), intervalMs);
  }

  stopRevalidation(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }

  /** Stops polling and disposes every loaded version (process shutdown). */
  async close(): Promise<void> {
    this.stopRevalidation();
    await this.loader.close();
    const builds: Build[] = [];
    for (const { live, extra } of this.remotes.values()) {
      if (live.build) builds.push(live.build);
      builds.push(...(await extra.clear()));
    }
    await Promise.all(builds.map((build) => this.loader.retire(build, true)));
  }

  /**
   * The server module `remote/module`: of the remote's live build,
   * or, with `version`, of that published build (the live one when it is that version).
   */
  load(remote: string, module: string, version?: string | null): Promise<IslandServerModule> {
    const entry = this.remotes.get(remote);
    if (version && entry && version !== entry.live.version) return entry.extra.load(version, module);
    // Hot path (every island of every page): the cached module, without another async step.
    const cached = entry?.live.build?.modules.get(module);
    if (cached) return cached;
    return entry ? entry.live.load(module) : Promise.reject(new ServerIslandError(remote, 'manifest', `no remote "${remote}" is configured`));
  }

  /**
   * Loads every exposed module of every remote (or of `remote`) now, so the first pages after a
   * start or a redeploy render within the budget instead of waiting for a cold load. Failures go
   * to `onError`; a later render tries again.
   */
  async preload(onError?: (remote: string, error: unknown) => void, remote?: string): Promise<void> {
    const entries = [...this.remotes.values()].filter((entry) => !remote || entry.live.definition.name === remote);
    await Promise.all(
      entries.map(async ({ live }) => {
        const name = live.definition.name;
        try {
          const build = await live.current();
          await Promise.all(serverExposesOf(build.manifest).map((expose) => this.load(name, expose)));
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
    const entry = this.remotes.get(remote);
    if (!entry) throw new ServerIslandError(remote, 'manifest', `no remote "${remote}" is configured`);
    const build = version === entry.live.version ? entry.live.build! : await entry.extra.get(version);
    await Promise.all(serverExposesOf(build.manifest).map((expose) => this.load(remote, expose, version)));
  }

  /** The build `version` (or the live one) of `remote`, when it is loaded (synchronous readers: assets of a page being rendered). */
  private buildOf(remote: string, version?: string | null): Build | undefined {
    const entry = this.remotes.get(remote);
    if (!version || version === entry?.live.version) return entry?.live.build;
    return entry?.extra.loaded(version);
  }

  /** Stylesheet URLs the browser build of `remote/module` (live, or at `version`) needs (from the manifest), for `<link>`s. */
  stylesheets(remote: string, module: string, version?: string | null): string[] {
    const build = this.buildOf(remote, version);
    if (!build) return [];
    const key = `${module}\n${build.manifest.hash}`;
    let urls = build.stylesheetCache.get(key);
    if (!urls) {
      urls = stylesheetsOf(build.manifest, module);
      build.stylesheetCache.set(key, urls);
    }
    return urls;
  }

  /**
   * Script URLs the browser build of `remote` (live, or at `version`) loads for `modules` (their
   * expose chunks, from the manifest), plus the files of its shared React renderer when one of
   * those modules needs it as it loads (its `requires` names the renderer; a build whose manifest
   * does not say is taken to need it, as every island did before): for preload hints of a first
   * view. Islands bound without a framework get no renderer preloaded. Empty while the manifest is not loaded.
   */
  scripts(remote: string, modules: readonly string[], version?: string | null): string[] {
    const manifest = this.buildOf(remote, version)?.manifest;
    return manifest ? scriptsOf(manifest, modules) : [];
  }

  /**
   * Whether one of `modules` of `remote` needs the shared React renderer as it loads (its
   * manifest's `requires` names it, or does not say). True while the manifest is not loaded.
   */
  needsRenderer(remote: string, modules: readonly string[], version?: string | null): boolean {
    return needsRenderer(this.buildOf(remote, version)?.manifest, modules);
  }

  /** How many builds of `remote` replaced its first one (part of cache keys of its renders). */
  generation(remote: string): number {
    return this.remotes.get(remote)?.live.generation ?? 0;
  }

  /** A key of the build a render of `remote` used (live: its generation; else the version): render cache keys. */
  buildKey(remote: string, version?: string | null): string {
    return !version || version === this.remotes.get(remote)?.live.version ? `live ${this.generation(remote)}` : `version ${version}`;
  }

  /** URL of the browser entry of `remote`'s loaded build (or of `version`); undefined before its manifest is loaded. */
  browserEntryUrl(remote: string, version?: string | null): string | undefined {
    const manifest = this.buildOf(remote, version)?.manifest;
    return manifest ? browserEntryUrl(manifest) : undefined;
  }

  /**
   * The manifest URL the browser must load to run the build a page rendered `remote` with: the
   * live build's own folder (`versions/<buildVersion>/mf-manifest.json`, so a deploy after the
   * page was served does not change what it loads), or that of `version`. Undefined before the
   * live manifest is loaded, or when it states no build version.
   */
  pinnedManifestUrl(remote: string, version?: string | null): string | undefined {
    const live = this.remotes.get(remote)?.live;
    const chosen = version ?? live?.version;
    return live && chosen ? versionManifestUrl(live.definition.entry, chosen) : undefined;
  }

  /**
   * The live build's version of `remote` when a page may pin it: its manifest was switched by
   * tooling/deploy (`metaData.deployedAt`), so the build's own folder `versions/<buildVersion>/`
   * is at the origin. Undefined before the live manifest is loaded, or for an origin that serves a
   * build directly (a remote's own `serve`, a dev server): pages then read the live manifest.
   */
  pinnableLiveVersion(remote: string): string | undefined {
    const manifest = this.remotes.get(remote)?.live.build?.manifest;
    return typeof manifest?.json.metaData?.deployedAt === 'string' ? buildVersionOf(manifest) : undefined;
  }

  /**
   * The build version of `remote`'s live build, as its manifest states it; undefined before the
   * live manifest is loaded, or when it states none. Cheap (no URL is built): pages and island
   * renders read it for each request, where `pollStates()` built every remote's whole state.
   */
  liveBuildVersion(remote: string): string | undefined {
    return buildVersionOf(this.remotes.get(remote)?.live.build?.manifest);
  }

  /** The live build version of every remote, in the configured order (`liveBuildVersion`). */
  liveBuildVersions(): { remote: string; buildVersion: string | undefined }[] {
    return [...this.remotes.keys()].map((remote) => ({ remote, buildVersion: this.liveBuildVersion(remote) }));
  }

  /** Build versions other than the live one loaded now for `remote`, least recently used first. */
  pinnedVersions(remote: string): string[] {
    return this.remotes.get(remote)?.extra.versions() ?? [];
  }

  /** Read-only: each remote's manifest URL, last poll and loaded build (the health view, entry preloads). */
  pollStates(): RemotePollState[] {
    return [...this.remotes.values()].map(({ live }) => live.pollState());
  }

  /** The build each remote currently renders with. */
  versions(): RemoteVersion[] {
    return [...this.remotes.values()].map(({ live }) => ({ remote: live.definition.name, hash: live.build?.manifest.hash, generation: live.generation }));
  }

  /**
   * Fetches every configured remote's manifest once, whether its first fetch succeeded or not and
   * whatever build pages pin: a first or changed one becomes the live build (`LiveBuild.revalidate`)
   * and is warmed up. A failed fetch keeps the loaded build.
   * @param onError  A remote's failure that leaves its islands without a build: its poll failed
   *   while none is loaded (pages render its placeholders), or its new build did not warm up.
   * @param onPollFailed  A poll that failed while a loaded build goes on rendering every page (a
   *   busy origin or event loop past the hop's deadline): nothing failed for a visitor, so it is
   *   no island failure (the health view shows the poll). Default: nothing.
   */
  async revalidate(onError?: (remote: string, error: unknown) => void, onPollFailed?: PollFailedListener): Promise<void> {
    await Promise.all(
      [...this.remotes.values()].map(async ({ live }) => {
        let changed: boolean;
        try {
          changed = await live.revalidate();
        } catch (error) {
          if (live.build) onPollFailed?.(live.definition.name, error, live.version);
          else onError?.(live.definition.name, error);
          return;
        }
        // Warm the new build up before pages need it (not awaited: polling never waits on a load).
        if (changed) void this.preload(onError, live.definition.name);
      }),
    );
  }
}
