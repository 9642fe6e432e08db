import type { IslandServerModule } from 'contracts';
import type { ServerFederationPlugin } from '../serverFederationPlugin.js';

/**
 * Releases a retired build's resources (each module's `dispose()`, once per function) after
 * `delayMs`, so renders that started with it finish first; at once when the loader closes.
 * @param delayMs default 10 000.
 */
export function delayedDisposePlugin(options: { delayMs?: number; log?: Pick<Console, 'error'> } = {}): ServerFederationPlugin {
  const timers = new Set<NodeJS.Timeout>();
  const log = options.log ?? console;
  return {
    name: 'khs-server-delayed-dispose',
    async buildRetired({ build, closing }) {
      if (closing) return disposeAll(build.modules, log);
      const timer = setTimeout(() => {
        timers.delete(timer);
        void disposeAll(build.modules, log);
      }, options.delayMs ?? 10_000);
      timer.unref();
      timers.add(timer);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

async function disposeAll(modules: ReadonlyMap<string, Promise<IslandServerModule>>, log: Pick<Console, 'error'>): Promise<void> {
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
