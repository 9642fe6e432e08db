// The store of one remote's extra builds: builds other than the live one that requests asked for
// by version (a preview, a canary side, a page pinned to the build it was rendered with), each
// loaded from `versions/<version>/mf-manifest.json` at the remote's origin and registered beside
// the live build under a name of its own; a bounded number kept, least recently used released first.
import { createHash } from 'node:crypto';
import { containerName, type IslandServerModule, type RemoteDefinition } from 'contracts';
import { fetchManifest } from './manifest.js';
import { newBuild, type Build, type BuildLoader } from './buildLoader.js';
import { ServerIslandError } from './serverIslandError.js';
import { isBuildVersion, versionManifestUrl } from './versionSelection.js';

export interface ExtraBuildsOptions {
  loader: BuildLoader;
  fetch: typeof fetch;
  /** Deadline of one manifest fetch. */
  hopTimeoutMs: number;
  /** How many extra builds stay loaded; past it the least recently used one not protected is released. */
  maxBuilds: number;
  /** Versions never released (the remote's stable and canary builds). */
  protectedVersions: () => readonly string[];
  /** Runs before a build's container first starts (the live build is started first: its chunks resolve through it). */
  beforeFirstStart: () => Promise<void>;
}

export class ExtraBuilds {
  /** By build version, least recently used first. */
  private readonly builds = new Map<string, Promise<Build>>();
  /** The builds already loaded (synchronous readers: assets of a page being rendered). */
  private readonly settled = new WeakMap<Promise<Build>, Build>();

  constructor(
    private readonly definition: RemoteDefinition,
    private readonly options: ExtraBuildsOptions,
  ) {}

  /** The module `module` of the build `version`, loading the build when needed. */
  async load(version: string, module: string): Promise<IslandServerModule> {
    const build = await this.get(version);
    this.options.loader.checkBeforeLoad(this.definition.name, module, build.manifest);
    if (!build.started) await this.options.beforeFirstStart();
    try {
      return await this.options.loader.moduleOf(build, module);
    } catch (error) {
      // A container that failed to start is not reused: the next request loads the build afresh,
      // registered again (which drops the runtime's caches of it).
      if (!build.started) this.drop(version, build);
      throw error;
    }
  }

  /** The build `version` (its manifest read and registered), loading it when needed. */
  get(version: string): Promise<Build> {
    const name = this.definition.name;
    if (!isBuildVersion(version)) return Promise.reject(new ServerIslandError(name, 'manifest', `"${name}": not a build version`));
    let loading = this.builds.get(version);
    if (loading) {
      // Most recently used last.
      this.builds.delete(version);
      this.builds.set(version, loading);
      return loading;
    }
    const entry = versionManifestUrl(this.definition.entry, version);
    loading = fetchManifest(this.options.fetch, name, entry, this.options.hopTimeoutMs).then((manifest) => {
      // Its own name in the runtime: the live build keeps the container's name, each other build is registered beside it.
      const build = newBuild(name, manifest, `${containerName(name)}__v${createHash('sha256').update(version).digest('hex').slice(0, 12)}`, entry);
      this.options.loader.register(build);
      return build;
    });
    this.builds.set(version, loading);
    const settling = loading;
    settling.then((build) => this.settled.set(settling, build)).catch(() => {});
    // A failed build is not kept: the next request tries again (it may be published by then).
    loading.catch(() => {
      if (this.builds.get(version) === loading) this.builds.delete(version);
    });
    this.evict();
    return loading;
  }

  /** Forgets `build` of `version` when it is the one kept. */
  private drop(version: string, build: Build): void {
    const loading = this.builds.get(version);
    if (loading && this.settled.get(loading) === build) this.builds.delete(version);
  }

  /** The build `version` when it is loaded already; undefined otherwise. */
  loaded(version: string): Build | undefined {
    const loading = this.builds.get(version);
    return loading ? this.settled.get(loading) : undefined;
  }

  /** The versions kept now, least recently used first. */
  versions(): string[] {
    return [...this.builds.keys()];
  }

  /** Forgets every build (process shutdown); resolves with those that had loaded, for release. */
  async clear(): Promise<Build[]> {
    const builds: Build[] = [];
    for (const loading of this.builds.values()) builds.push(...(await loading.then((build) => [build]).catch(() => [])));
    this.builds.clear();
    return builds;
  }

  /** Releases the least recently used builds beyond `maxBuilds`, never a protected one. */
  private evict(): void {
    const limit = this.options.maxBuilds;
    if (this.builds.size <= limit) return;
    const protectedVersions = new Set(this.options.protectedVersions());
    for (const [version, loading] of this.builds) {
      if (this.builds.size <= limit) break;
      if (protectedVersions.has(version)) continue;
      this.builds.delete(version);
      loading.then((build) => this.options.loader.retire(build, false)).catch(() => {});
    }
  }
}
