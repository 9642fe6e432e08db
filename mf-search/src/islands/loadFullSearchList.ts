import type { IslandContext, Unmount } from 'contracts';
import type { FullSearchListOptions } from './fullSearchList.js';
import type { SearchListOptionProps } from './searchListOptions.js';

/** The full island's module (React, InstantSearch, the search client): what `loadFullSearchList` resolves to. */
export type FullSearchListModule = {
  mountFullSearchList(element: HTMLElement, props: SearchListOptionProps | undefined, context: IslandContext, options?: FullSearchListOptions): Promise<Unmount>;
};

/**
 * The parts of the full island, evaluated one per task before the island's own module, in the
 * order it needs them: the React renderer (shared), InstantSearch's core, the list's components
 * with React InstantSearch, the search client with its adapter (typesense, axios). An import evaluates its
 * whole module graph in one task: as one import, the island's (some 150 ms on a phone with a 4×
 * slower CPU) ran at once, and a key pressed meanwhile waited for all of it (the search page's
 * INP while typing). The island's own modules, not the packages, are imported here: a package's
 * namespace would keep every export (all of React InstantSearch's widgets).
 */
const FULL_LIST_PARTS: ReadonlyArray<() => Promise<unknown>> = [
  () => import(/* webpackChunkName: "search-list-react" */ 'react-dom/client'),
  // InstantSearch's core (with its helper) apart from React InstantSearch and the list: together
  // they were still the longest part.
  () => import(/* webpackChunkName: "search-list-instantsearch" */ 'instantsearch.js/es/lib/InstantSearch.js'),
  () => import(/* webpackChunkName: "search-list-components" */ '../components/SearchList.js'),
  () => import(/* webpackChunkName: "search-list-client" */ '../config/createSearchClient.js'),
];

/**
 * Lets the browser handle waiting input and paint before the next step: `scheduler.yield()`
 * where there is one (Chromium: the continuation keeps its place ahead of other tasks), else a
 * new task.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Loads the full island (`fullSearchList`) with a yield to the browser after each of its
 * parts (`FULL_LIST_PARTS`), so no single task evaluates all of them. An import
 * evaluates its modules as soon as its chunks are there, so the steps are imported one after
 * the other; their chunks are usually in the cache already (prefetched once the browser is idle
 * after the binding, `prefetchSharedModules.ts`), else each step fetches its own in parallel.
 * @param parts  Loaded one per task first. Default `FULL_LIST_PARTS`.
 * @param island  The island's own module. Default its dynamic import.
 */
export async function loadFullSearchList(
  parts: ReadonlyArray<() => Promise<unknown>> = FULL_LIST_PARTS,
  island: () => Promise<FullSearchListModule> = () => import(/* webpackChunkName: "search-list-full" */ './fullSearchList.js'),
): Promise<FullSearchListModule> {
  for (const load of parts) {
    await load();
    await yieldToBrowser();
  }
  return island();
}
