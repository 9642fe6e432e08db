import { createPageBus, type IslandContext, type PageConfig } from 'contracts';

/**
 * The context the browser mount gets, for a server render: a bus nothing is emitted on (the
 * components subscribe in effects, which never run on the server) and no consent yet (the
 * browser reads the visitor's after hydration).
 */
export function serverIslandContext(config: PageConfig): IslandContext {
  return { bus: createPageBus(), config, getConsent: () => ({ insights: false, tracking: false }) };
}
