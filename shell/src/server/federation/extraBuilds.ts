// The store of one remote's extra builds: builds other than the live one that requests asked for
// by version (a preview, a canary side, a page pinned to the build it was rendered with), each
// loaded from `versions/<version>/mf-manifest.json` at the remote's origin and registered beside
// the live build under a name of its own; a bounded number kept, least recently used released first.
import { createHash } from 'node:crypto';
import { containerName, type RemoteDefinition } from 'contracts';
import { fetchManifest } from './manifest.js';
import { newBuild, type Build, type BuildLoader } from './buildLoader.js';
import { versionManifestUrl } from './versionSelection.js';

export interface ExtraBuildsOptions {
  loader: BuildLoader;
  fetch: typeof fetch;
  /** Deadline of one manifest fetch. */
  hopTimeoutMs: number;
  /** How many extra builds stay loaded; past it the least recently used one not protected is released. */
  maxBuilds: number;
  /** Versions never released (the remote's stable and canary builds). */
  protectedVersions: () => readonly string[];
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

  /** The build `version` (its manifest read and registered), loading it when needed. */
  get(version: string): Promise<Build> {
    let loading = this.builds.get(version);
    if (loading) {
      // Most recently used last.
      this.builds.delete(version);
      this.builds.set(version, loading);
      return loading;
    }
    const name = this.definition.name;
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
