import { createPageBus, type PageBus } from 'contracts';

/**
 * A bus for server renders: the components subscribe only in effects, which never run on the
 * server, so nothing is ever emitted on it. One per render keeps requests apart anyway.
 */
export function serverPageBus(): PageBus {
  return createPageBus();
}
