import mitt, { type Emitter } from 'mitt';
import type { SiteEventName, SiteEvents } from './events.js';

export type SiteEventHandler<K extends SiteEventName> = (payload: SiteEvents[K]) => void;

/** The typed page bus. `on` returns the matching unsubscribe function. */
export interface PageBus {
  on<K extends SiteEventName>(type: K, handler: SiteEventHandler<K>): () => void;
  off<K extends SiteEventName>(type: K, handler: SiteEventHandler<K>): void;
  emit<K extends SiteEventName>(type: K, payload: SiteEvents[K]): void;
}

/** Where a page keeps its one bus. Versioned by contracts' major version. */
const PAGE_BUS_KEY = Symbol.for('khs.contracts.page-bus.v1');

type ErrorLogger = Pick<Console, 'error'>;

/**
 * A bus whose listeners are isolated: a listener that throws is logged and the others still
 * run. Built on mitt; the wrapper map lets `off` find the wrapped handler.
 */
export function createPageBus(logger: ErrorLogger = console): PageBus {
  const emitter: Emitter<Record<SiteEventName, unknown>> = mitt();
  const wrapped = new Map<SiteEventName, Map<Function, (payload: unknown) => void>>();

  function off<K extends SiteEventName>(type: K, handler: SiteEventHandler<K>): void {
    const forType = wrapped.get(type);
    const isolated = forType?.get(handler);
    if (!forType || !isolated) return;
    emitter.off(type, isolated);
    forType.delete(handler);
  }

  return {
    on(type, handler) {
      let forType = wrapped.get(type);
      if (!forType) {
        forType = new Map();
        wrapped.set(type, forType);
      }
      if (!forType.has(handler)) {
        const isolated = (payload: unknown) => {
          try {
            handler(payload as never);
          } catch (error) {
            logger.error(`[contracts] a listener of "${type}" threw; other listeners still ran`, error);
          }
        };
        forType.set(handler, isolated);
        emitter.on(type, isolated);
      }
      return () => off(type, handler);
    },
    off,
    emit(type, payload) {
      emitter.emit(type, payload);
    },
  };
}

/**
 * The one bus of the page. Two separately built bundles may each carry their own copy of
 * contracts, so the bus lives on the global object under a registry symbol, not in a module
 * variable: every copy finds the same instance.
 */
export function getPageBus(scope: object = globalThis): PageBus {
  const holder = scope as { [PAGE_BUS_KEY]?: PageBus };
  holder[PAGE_BUS_KEY] ??= createPageBus();
  return holder[PAGE_BUS_KEY];
}
