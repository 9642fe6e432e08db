import { whenTriggered } from './hydrationTriggers.js';
import {
  ISLAND_ATTRIBUTE,
  ISLAND_HYDRATE_ATTRIBUTE,
  ISLAND_PROPS_ATTRIBUTE,
  ISLAND_SERVER_STATE_ATTRIBUTE,
  ISLAND_STATE_ATTRIBUTE,
  parseHydrateTrigger,
  parseIslandName,
  type IslandContext,
  type IslandHydration,
  type IslandModule,
  type RemoteDefinition,
  type Unmount,
} from 'contracts';

/** Loads an exposed module, e.g. `mf-watchlist/WatchlistButton`. */
export type ModuleLoader = (id: string) => Promise<IslandModule | null | undefined>;

export interface IslandRuntimeOptions {
  root: ParentNode;
  context: IslandContext;
  /** Registers the remotes this page uses (nothing else is fetched). */
  registerRemotes: (remotes: RemoteDefinition[]) => void;
  loadModule: ModuleLoader;
  timeoutMs: number;
  log?: Pick<Console, 'error'>;
}

export interface IslandRuntime {
  /**
   * Settles when every island mounted or kept its fallback; an island waiting for its trigger
   * (`data-island-hydrate`) counts once it is triggered.
   */
  ready: Promise<void>;
  /** Unmounts every mounted island. */
  unmountAll(): void;
}

/** Why an island kept its fallback: the stage that failed, for one log line per remote. */
type FailureStage = 'load' | 'timeout' | 'mount' | 'props' | 'unknown-remote';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { stage: 'timeout' })), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * The hydration data of an island the remote rendered on the server: the JSON script the shell
 * put right after its element. Undefined for an island holding a placeholder (or bad JSON).
 */
export function readIslandHydration(element: HTMLElement): IslandHydration | undefined {
  const script = element.nextElementSibling;
  if (!script || script.tagName !== 'SCRIPT' || !script.hasAttribute(ISLAND_SERVER_STATE_ATTRIBUTE)) return undefined;
  try {
    const parsed = JSON.parse(script.textContent || '{}') as { state?: unknown };
    return { state: parsed.state ?? undefined };
  } catch {
    return undefined;
  }
}

/**
 * Mounts every `[data-island]` of the page through the remotes' mount functions. Each island
 * fails alone: its server fallback stays, the remote is logged once, the others go on.
 */
export function startIslandRuntime(options: IslandRuntimeOptions): IslandRuntime {
  const { root, context, timeoutMs, log = console } = options;
  const elements = [...root.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)];
  const known = new Map(context.config.remotes.map((remote) => [remote.name, remote]));
  const failedRemotes = new Set<string>();
  const unmounts: Unmount[] = [];

  const fail = (element: HTMLElement, remote: string, stage: FailureStage, error: unknown, fallbackHtml: string) => {
    element.innerHTML = fallbackHtml;
    element.setAttribute(ISLAND_STATE_ATTRIBUTE, 'failed');
    if (failedRemotes.has(remote)) return;
    failedRemotes.add(remote);
    log.error(`[shell] remote "${remote}" failed (${stage}); its islands keep their server markup`, error);
  };

  const used = new Map<string, RemoteDefinition>();
  for (const element of elements) {
    const parsed = parseIslandName(element.getAttribute(ISLAND_ATTRIBUTE) ?? '');
    const remote = parsed && known.get(parsed.remote);
    if (remote) used.set(remote.name, remote);
  }
  options.registerRemotes([...used.values()]);

  const mountOne = async (element: HTMLElement) => {
    const name = element.getAttribute(ISLAND_ATTRIBUTE) ?? '';
    const parsed = parseIslandName(name);
    const fallbackHtml = element.innerHTML;
    if (!parsed || !known.has(parsed.remote)) {
      fail(element, parsed?.remote ?? name, 'unknown-remote', new Error(`no remote configured for island "${name}"`), fallbackHtml);
      return;
    }
    let props: Record<string, unknown>;
    try {
      props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTRIBUTE) || '{}') as Record<string, unknown>;
    } catch (error) {
      fail(element, parsed.remote, 'props', error, fallbackHtml);
      return;
    }
    let module: IslandModule | null | undefined;
    try {
      module = await withTimeout(options.loadModule(`${parsed.remote}/${parsed.module}`), timeoutMs);
      if (typeof module?.default !== 'function') throw new Error(`"${name}" has no default mount export`);
    } catch (error) {
      const stage = (error as { stage?: FailureStage })?.stage === 'timeout' ? 'timeout' : 'load';
      fail(element, parsed.remote, stage, error, fallbackHtml);
      return;
    }
    try {
      // Server-rendered islands are hydrated by their mount (same props, the server's state).
      const hydration = readIslandHydration(element);
      const unmount = await module.default(element, props, hydration ? { ...context, hydration } : context);
      unmounts.push(unmount);
      element.setAttribute(ISLAND_STATE_ATTRIBUTE, 'mounted');
    } catch (error) {
      fail(element, parsed.remote, 'mount', error, fallbackHtml);
    }
  };

  const cancels: Array<() => void> = [];
  const ready = Promise.all(
    elements.map(
      (element) =>
        new Promise<void>((resolve) => {
          cancels.push(whenTriggered(element, parseHydrateTrigger(element.getAttribute(ISLAND_HYDRATE_ATTRIBUTE)), () => mountOne(element).then(resolve)));
        }),
    ),
  ).then(() => undefined);
  return {
    ready,
    unmountAll() {
      for (const cancel of cancels.splice(0)) cancel();
      for (const unmount of unmounts.splice(0)) {
        try {
          unmount();
        } catch (error) {
          log.error('[shell] an island failed to unmount', error);
        }
      }
    },
  };
}
