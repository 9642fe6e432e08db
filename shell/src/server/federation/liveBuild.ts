// The live build of one remote: the build its live manifest names, fetched on first use, polled
// for a new one (a deploy, a rollback, a dev rebuild) and swapped in place, with what the
// operators' view shows of it (its polls, its version, when it changed).
import { containerName, type RemoteDefinition } from 'contracts';
import { browserEntryUrl } from './manifestAssets.js';
import { buildVersionOf, fetchManifest, type ParsedManifest } from './manifest.js';
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
  registered = false;
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
    if (!this.build) await this.firstManifest();
    return this.build!;
  }

  /** Registers the live build under the remote's name when it is not yet. */
  ensureRegistered(build: Build): void {
    if (!this.registered) this.register(build);
  }

  /**
   * Fetches the live manifest once; a changed one replaces the loaded build. Resolves true when it
   * did (the caller warms the new build up). Rejects when the fetch failed (the build is kept).
   */
  async revalidate(): Promise<boolean> {
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

  private async firstManifest(): Promise<void> {
    const { retryMs, now } = this.options;
    if (this.failedAt !== undefined && now() - this.failedAt < retryMs) {
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
