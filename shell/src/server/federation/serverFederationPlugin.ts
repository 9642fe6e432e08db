import type { IslandServerModule } from 'contracts';
import type { ParsedManifest } from './manifest.js';

/** One loaded build of a remote: its manifest and the modules loaded from it. */
export interface LoadedBuild {
  remote: string;
  manifest: ParsedManifest;
  modules: ReadonlyMap<string, Promise<IslandServerModule>>;
}

/**
 * A policy of the server's federation loader, as the browser's runtime plugins are
 * (`src/client/federationPlugins`): small, one concern each, tested alone. Every hook is optional;
 * a hook that throws a `ServerIslandError` refuses what it was shown (the island keeps its
 * placeholder, the error is logged and counted with its code).
 */
export interface ServerFederationPlugin {
  /** Names the plugin (`khs-server-contracts-compatibility`). */
  name: string;
  /** Before a module of a build loads (the build's manifest is read): throw to refuse the build. */
  beforeLoad?(args: { remote: string; module: string; manifest: ParsedManifest }): void;
  /** A module loaded (`null`: the runtime found nothing): throw to refuse it. */
  afterLoad?(args: { remote: string; module: string; loaded: IslandServerModule | null }): void;
  /** The live build of a remote was replaced by a new one (a deploy or rollback seen by a poll). */
  liveBuildChanged?(args: { remote: string; previous: ParsedManifest | undefined; fresh: ParsedManifest }): void;
  /**
   * New renders no longer use `build`: replaced by a new live build, evicted from the pinned
   * versions, or the loader is closing (`closing: true`: release at once).
   */
  buildRetired?(args: { build: LoadedBuild; closing: boolean }): void | Promise<void>;
  /** The loader is closing (cancel timers). */
  close?(): void | Promise<void>;
}
