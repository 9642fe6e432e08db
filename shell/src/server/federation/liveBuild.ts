// The live build of one remote: the build its live manifest names, fetched on first use, polled
// for a new one (a deploy, a rollback, a dev rebuild) and swapped in place, with what the
// operators' view shows of it (its polls, its version, when it changed).
import { containerName, type IslandServerModule, type RemoteDefinition } from 'contracts';
import { browserEntryUrl } from './manifestAssets.js';
import { buildVersionOf, fetchManifest, serverExposesOf, type ParsedManifest } from './manifest.js';
import { newBuild, type Build, type BuildLoader } from './buildLoader.js';
import { ServerIslandError } from './serverIslandError.js';

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

export interface LiveBuildOptions {
  loader: BuildLoader;
  fetch: typeof fetch;
  now: () => number;
  /** Deadline of one manifest fetch. */
  hopTimeoutMs: number;
  /** A failed first manifest fetch is not retried sooner than this (a down origin is not hammered). */
  retryMs: number;
}

export class LiveBuild {
  /** The build renders use now; undefined before its manifest was first fetched. */
  build: Build | undefined;
  /** How many times a new build replaced the loaded one. */
  generation = 0;
  /** The build is registered with the runtime under the remote's name. */
  private registered = false;
  private loading: Promise<ParsedManifest> | undefined;
  private failedAt: number | undefined;
  /** The last manifest fetch (first load or revalidation), for the health view. */
  private lastPoll: { at: number; ok: boolean; error?: string } | undefined;
  /** When the loaded manifest was first seen (first load or a swap). */
  private changedAt: number | undefined;

  constructor(
    readonly definition: RemoteDefinition,
    private readonly options: LiveBuildOptions,
  ) {}

  /** `buildVersion` of the live manifest; undefined before it is loaded. */
  get version(): string | undefined {
    return buildVersionOf(this.build?.manifest);
  }

  /** The live build, its manifest fetched when it is not yet (throttled after a failure). */
  async current(): Promise<Build> {
    if (!this.build) await this.firstManifest({ throttled: true });
    return this.build!;
  }

  /** The module `module` of the live build (registered under the remote's name on first use). */
  async load(module: string): Promise<IslandServerModule> {
    const build = await this.current();
    this.options.loader.checkBeforeLoad(this.definition.name, module, build.manifest);
    if (!this.registered) this.register(build);
    return this.options.loader.moduleOf(build, module);
  }

  /**
   * Registers the live build and starts its container when it has not started, before another
   * build of the remote starts its own: a container resolves its chunks through the build loaded
   * under its name (the live one); with none the node runtime installs empty chunks and that
   * container stays broken ("has no server render"). Rejects when the live manifest cannot be read.
   */
  async start(): Promise<void> {
    const build = await this.current();
    if (!this.registered) this.register(build);
    if (!build.started) await Promise.allSettled(serverExposesOf(build.manifest).map((expose) => this.load(expose)));
  }

  /**
   * One poll of the live manifest, whatever happened before: the first successful one loads the
   * manifest (a remote unreachable at the start, or never asked for by a page, comes back by
   * itself); after that a changed manifest replaces the loaded build. Resolves true when there is
   * a new build to warm up. Rejects when the fetch failed (a loaded build is kept).
   */
  async revalidate(): Promise<boolean> {
    if (!this.build) {
      await this.firstManifest({ throttled: false });
      return true;
    }
    const fresh = await this.fetchManifest();
    if (fresh.hash === this.build?.manifest.hash) return false;
    this.swap(fresh);
    return true;
  }

  /** Read-only: the manifest URL, last poll and loaded build (the health view, entry preloads). */
  pollState(): RemotePollState {
    const metaData = this.build?.manifest.json.metaData;
    return {
      remote: this.definition.name,
      manifestUrl: this.definition.entry,
      ...(this.lastPoll ? { lastPoll: { ...this.lastPoll } } : {}),
      ...(metaData ? { buildVersion: buildVersionOf(this.build!.manifest) } : {}),
      ...(metaData?.contractsVersion ? { contractsVersion: metaData.contractsVersion } : {}),
      ...(this.changedAt !== undefined ? { changedAt: this.changedAt } : {}),
      ...(typeof metaData?.deployedAt === 'string' ? { deployedAt: metaData.deployedAt } : {}),
      generation: this.generation,
      ...(this.build ? { browserEntryUrl: browserEntryUrl(this.build.manifest) } : {}),
    };
  }

  private swap(fresh: ParsedManifest): void {
    const old = this.build;
    this.build = this.newLiveBuild(fresh);
    this.changedAt = this.options.now();
    this.generation += 1;
    this.register(this.build);
    this.options.loader.liveBuildChanged(this.definition.name, old?.manifest, fresh);
    // Renders that started with the old build may still be running: its plugins release it later.
    if (old) void this.options.loader.retire(old, false);
  }

  private register(build: Build): void {
    this.options.loader.register(build, this.definition.name);
    this.registered = true;
  }

  private newLiveBuild(manifest: ParsedManifest): Build {
    const { name, entry } = this.definition;
    return newBuild(name, manifest, containerName(name), entry);
  }

  /** `throttled`: a page's first use, not retried within `retryMs` of a failure (a poll keeps its own pace). */
  private async firstManifest({ throttled }: { throttled: boolean }): Promise<void> {
    const { retryMs, now } = this.options;
    if (throttled && this.failedAt !== undefined && now() - this.failedAt < retryMs) {
      throw new ServerIslandError(this.definition.name, 'manifest', `manifest of "${this.definition.name}" failed less than ${retryMs} ms ago`);
    }
    this.loading ??= this.fetchManifest().finally(() => (this.loading = undefined));
    try {
      const manifest = await this.loading;
      if (!this.build) {
        this.build = this.newLiveBuild(manifest);
        this.changedAt = now();
      }
      this.failedAt = undefined;
    } catch (error) {
      this.failedAt = now();
      throw error;
    }
  }

  private async fetchManifest(): Promise<ParsedManifest> {
    const { name, entry } = this.definition;
    try {
      const manifest = await fetchManifest(this.options.fetch, name, entry, this.options.hopTimeoutMs);
      this.lastPoll = { at: this.options.now(), ok: true };
      return manifest;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      this.lastPoll = { at: this.options.now(), ok: false, error: String((cause as Error)?.message ?? cause).slice(0, 300) };
      throw error;
    }
  }
}
