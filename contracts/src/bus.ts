import mitt, { type Emitter } from 'mitt';
import { readSiteEvent } from './eventPayloads.js';
import type { ReceivedSiteEvent, SiteEventName, SiteEvents } from './events.js';

/** A listener: receives the payload as this contracts version reads it (`readSiteEvent`). */
export type SiteEventHandler<K extends SiteEventName> = (payload: ReceivedSiteEvent<K>) => void;

/** The typed page bus. `on` returns the matching unsubscribe function. */
export interface PageBus {
  on<K extends SiteEventName>(type: K, handler: SiteEventHandler<K>): () => void;
  off<K extends SiteEventName>(type: K, handler: SiteEventHandler<K>): void;
  emit<K extends SiteEventName>(type: K, payload: SiteEvents[K]): void;
}

/** Where a page keeps its one bus. Versioned by contracts' major version. */
const PAGE_BUS_KEY = Symbol.for('khs.contracts.page-bus.v1');

type ErrorLogger = Pick<Console, 'error'>;

/** A listener of any event, as a map key: every `SiteEventHandler<K>` is one. */
type AnySiteEventHandler = (payload: never) => void;

/**
 * A bus whose listeners are isolated and tolerant: a listener that throws is logged and the others
 * still run; each listener gets the payload read by this contracts version (a newer producer's
 * extra fields dropped, an older producer's missing optional fields defaulted; a payload without
 * a required field is logged and not delivered). Producers' payloads travel unchanged.
 */
export function createPageBus(logger: ErrorLogger = console): PageBus {
  return tolerantView(createTransport(logger), logger);
}

/**
 * The bus every copy of contracts on the page shares: delivers payloads as sent, listeners
 * isolated. Copies built before 1.2.0 use it directly as their `PageBus`, so it keeps that shape.
 */
function createTransport(logger: ErrorLogger): PageBus {
  const emitter: Emitter<Record<SiteEventName, unknown>> = mitt();
  const wrapped = new Map<SiteEventName, Map<AnySiteEventHandler, (payload: unknown) => void>>();

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
 * A view of `transport` whose listeners receive payloads read by this copy of contracts: each
 * remote reads events as the contracts version it was built against defines them.
 */
function tolerantView(transport: PageBus, logger: ErrorLogger): PageBus {
  const readers = new Map<SiteEventName, Map<AnySiteEventHandler, (payload: never) => void>>();
  const off = <K extends SiteEventName>(type: K, handler: SiteEventHandler<K>): void => {
    const reader = readers.get(type)?.get(handler);
    if (!reader) return;
    readers.get(type)!.delete(handler);
    transport.off(type, reader as SiteEventHandler<K>);
  };
  return {
    on(type, handler) {
      let forType = readers.get(type);
      if (!forType) {
        forType = new Map();
        readers.set(type, forType);
      }
      if (!forType.has(handler)) {
        const reader = (payload: unknown) => {
          let read;
          try {
            read = readSiteEvent(type, payload);
          } catch (error) {
            logger.error(`[contracts] an event "${type}" was not delivered: ${(error as Error).message}`);
            return;
          }
          handler(read);
        };
        forType.set(handler, reader);
        transport.on(type, reader as never);
      }
      return () => off(type, handler);
    },
    off,
    emit(type, payload) {
      transport.emit(type, payload);
    },
  };
}

/** Each copy of contracts keeps one view per page transport. */
const views = new WeakMap<PageBus, PageBus>();

/**
 * The one bus of the page. Two separately built bundles may each carry their own copy of
 * contracts (a remote built against a newer minor brings its own), so the transport lives on the
 * global object under a registry symbol, not in a module variable: every copy finds the same
 * instance, and reads payloads through its own view.
 */
export function getPageBus(scope: object = globalThis): PageBus {
  const holder = scope as { [PAGE_BUS_KEY]?: PageBus };
  const transport = (holder[PAGE_BUS_KEY] ??= createTransport(console));
  let view = views.get(transport);
  if (!view) {
    view = tolerantView(transport, console);
    views.set(transport, view);
  }
  return view;
}
