import { whenTriggered } from './hydrationTriggers.js';
import { islandLoadFailure, type IslandFailureKind } from './federationPlugins/islandLoadError.js';
import type { IslandFailureReport } from '../shared/islandFailureReport.js';
import {
  ISLAND_ATTRIBUTE,
  ISLAND_HYDRATE_ATTRIBUTE,
  ISLAND_HYDRATION_MISMATCH_EVENT,
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

/**
 * Loads an exposed module, `remote/Module`. Deadlines, retries and reporting
 * of load failures belong to the loader (the federation runtime's plugins, `federationPlugins/`).
 */
export type ModuleLoader = (id: string) => Promise<IslandModule | null | undefined>;

export interface IslandRuntimeOptions {
  root: ParentNode;
  context: IslandContext;
  /** Registers the remotes this page uses (nothing else is fetched). */
  registerRemotes: (remotes: RemoteDefinition[]) => void;
  loadModule: ModuleLoader;
  /**
   * Receives the failures the runtime itself sees: a module without a mount function, a mount or
   * hydration that threw, a hydration mismatch an island signalled (`ISLAND_HYDRATION_MISMATCH_EVENT`,
   * reported as `KHS-ISLAND-010`), an island the page cannot name. (Load failures are the loader's to report.)
   * Default: none.
   */
  reportFailure?: (report: IslandFailureReport) => void;
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

/** An island the page itself gets wrong (unknown remote, props that are not JSON). */
const PAGE_MARKUP_FAILURE: IslandFailureKind = { code: 'KHS-ISLAND-009', stage: 'mount' };

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

/** Whether the server said the island has nothing to show here (`{ "empty": true }` in its state script): nothing to load. */
export function isEmptyIsland(element: HTMLElement): boolean {
  const script = element.nextElementSibling;
  if (!script || script.tagName !== 'SCRIPT' || !script.hasAttribute(ISLAND_SERVER_STATE_ATTRIBUTE)) return false;
  try {
    return (JSON.parse(script.textContent || '{}') as { empty?: unknown }).empty === true;
  } catch {
    return false;
  }
}

/**
 * Mounts every `[data-island]` of the page through the remotes' mount functions. Each island
 * fails alone: its server fallback stays, the remote is logged once, the others go on.
 */
export function startIslandRuntime(options: IslandRuntimeOptions): IslandRuntime {
  const { root, context, log = console } = options;
  const all = [...root.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)];
  const known = new Map(context.config.remotes.map((remote) => [remote.name, remote]));
  const failedRemotes = new Set<string>();
  const unmounts: Unmount[] = [];

  /** Restores the fallback; logs one line per remote (stable code first); reports unless the loader did. */
  const fail = (element: HTMLElement, island: { remote: string; module?: string }, kind: IslandFailureKind, error: unknown, fallbackHtml: string, report: boolean) => {
    element.innerHTML = fallbackHtml;
    element.setAttribute(ISLAND_STATE_ATTRIBUTE, 'failed');
    if (report) options.reportFailure?.({ remote: island.remote, ...(island.module ? { module: `./${island.module}` } : {}), stage: kind.stage, code: kind.code });
    if (failedRemotes.has(island.remote)) return;
    failedRemotes.add(island.remote);
    log.error(`[shell] ${kind.code} remote "${island.remote}" failed (stage: ${kind.stage}); its islands keep their server markup`, error);
  };

  // Each island's state script read once: the empty ones are marked and left, the others mounted.
  const elements = all.filter((element) => {
    if (!isEmptyIsland(element)) return true;
    element.setAttribute(ISLAND_STATE_ATTRIBUTE, 'empty');
    return false;
  });
  options.registerRemotes(usedRemotes(elements, known));

  // React already recovered (the island is rendered in the browser); only the report is ours.
  const onMismatch = (event: Event) => {
    const element = event.target as HTMLElement | null;
    const parsed = parseIslandName(element?.getAttribute?.(ISLAND_ATTRIBUTE) ?? '');
    if (!parsed || !known.has(parsed.remote)) return;
    options.reportFailure?.({ remote: parsed.remote, module: `./${parsed.module}`, stage: 'hydrate', code: 'KHS-ISLAND-010' });
  };
  const events = root as Partial<EventTarget>;
  events.addEventListener?.(ISLAND_HYDRATION_MISMATCH_EVENT, onMismatch);

  const mounting: IslandMounting = { known, context, loadModule: options.loadModule, fail, unmounts };

  const cancels: Array<() => void> = [];
  const ready = Promise.all(
    elements.map(
      (element) =>
        new Promise<void>((resolve) => {
          cancels.push(whenTriggered(element, parseHydrateTrigger(element.getAttribute(ISLAND_HYDRATE_ATTRIBUTE)), () => mountIsland(element, mounting).then(resolve)));
        }),
    ),
  ).then(() => undefined);
  return {
    ready,
    unmountAll() {
      events.removeEventListener?.(ISLAND_HYDRATION_MISMATCH_EVENT, onMismatch);
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

/** The remotes the page's islands name (of those configured): the only ones registered. */
function usedRemotes(elements: HTMLElement[], known: Map<string, RemoteDefinition>): RemoteDefinition[] {
  const used = new Map<string, RemoteDefinition>();
  for (const element of elements) {
    const parsed = parseIslandName(element.getAttribute(ISLAND_ATTRIBUTE) ?? '');
    const remote = parsed && known.get(parsed.remote);
    if (remote) used.set(remote.name, remote);
  }
  return [...used.values()];
}

/** What mounting an island needs of the page's runtime. */
interface IslandMounting {
  known: Map<string, RemoteDefinition>;
  context: IslandContext;
  loadModule: ModuleLoader;
  /** Restores the island's fallback and logs (and reports) its failure. */
  fail: (element: HTMLElement, island: { remote: string; module?: string }, kind: IslandFailureKind, error: unknown, fallbackHtml: string, report: boolean) => void;
  /** Where a mounted island's unmount goes. */
  unmounts: Unmount[];
}

/**
 * Mounts (or hydrates) one island: reads its name and props, loads its module, calls its mount with
 * the server's state when it has one. Any failure keeps the island's fallback.
 */
async function mountIsland(element: HTMLElement, mounting: IslandMounting): Promise<void> {
  const name = element.getAttribute(ISLAND_ATTRIBUTE) ?? '';
  const parsed = parseIslandName(name);
  const fallbackHtml = element.innerHTML;
  if (!parsed || !mounting.known.has(parsed.remote)) {
    mounting.fail(element, { remote: parsed?.remote ?? name }, PAGE_MARKUP_FAILURE, new Error(`no remote configured for island "${name}"`), fallbackHtml, true);
    return;
  }
  let props: Record<string, unknown>;
  try {
    props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTRIBUTE) || '{}') as Record<string, unknown>;
  } catch (error) {
    mounting.fail(element, parsed, PAGE_MARKUP_FAILURE, error, fallbackHtml, true);
    return;
  }
  let module: IslandModule | null | undefined;
  try {
    module = await mounting.loadModule(`${parsed.remote}/${parsed.module}`);
  } catch (error) {
    mounting.fail(element, parsed, islandLoadFailure(error), error, fallbackHtml, false);
    return;
  }
  if (typeof module?.default !== 'function') {
    mounting.fail(element, parsed, { code: 'KHS-ISLAND-006', stage: 'expose' }, new Error(`"${name}" has no default mount export`), fallbackHtml, true);
    return;
  }
  // Server-rendered islands are hydrated by their mount (same props, the server's state).
  const hydration = readIslandHydration(element);
  try {
    const unmount = await module.default(element, props, hydration ? { ...mounting.context, hydration } : mounting.context);
    mounting.unmounts.push(unmount);
    element.setAttribute(ISLAND_STATE_ATTRIBUTE, 'mounted');
  } catch (error) {
    mounting.fail(element, parsed, { code: 'KHS-ISLAND-007', stage: hydration ? 'hydrate' : 'mount' }, error, fallbackHtml, true);
  }
}
