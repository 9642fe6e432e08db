import { SEARCH_DEBOUNCE_MS, type IslandContext, type IslandMount, type Unmount } from 'contracts';
import '../styles/search.css';
import { afterPendingInput, debounceRemaining, TYPED_AT_PROPERTY } from '../autocomplete/typedAt.js';
import { bindSearchList, type HeldAction, type SearchListBinding } from '../bindings/bindSearchList.js';
import { createEarlyAnswers, fetchEarlyAnswer, recordedSearches, searchesForQuery } from '../config/earlySearch.js';
import { logConfigurationError } from '../config/logConfigurationError.js';
import { readSearchServerSettings } from '../config/searchServerSettings.js';
import { connectServerHitsInsights } from '../insights/serverHitsInsights.js';
import { loadFullSearchList, type FullSearchListModule } from './loadFullSearchList.js';
import { exposeAsyncFiles, FULL_LIST_SHARED_MODULES, prefetch, sharedModuleFiles } from './prefetchSharedModules.js';
import { isSearchListServerState, type SearchListServerState } from './searchListServerState.js';
import { listAddress } from '../routing/listAddress.js';
import { searchListOptions, type SearchListOptionProps } from './searchListOptions.js';
import { newQueryId } from '../tracking/lastSearch.js';
import { reportSiteSearch } from '../tracking/siteSearchReport.js';

/** Island props the server renders into `data-props`. */
export type SearchListIslandProps = SearchListOptionProps;

export type { FullSearchListModule } from './loadFullSearchList.js';

/**
 * Where the island is, on its element (`data-search-list`): `bound` (server markup bound without
 * a framework), `loading` (the visitor started; the full island is on its way), `interactive`
 * (the full island hydrated and took over), `failed` (it could not load: links and the form work
 * natively, held actions were carried out natively).
 */
export const SEARCH_LIST_STAGE_ATTRIBUTE = 'data-search-list';

/** Two frames: the hydrated tree's effects (InstantSearch's widgets) ran before a held action is replayed. */
function afterTwoFrames(): Promise<void> {
  return new Promise((resolve) => {
    // A hidden tab gets no frames: the timer goes on anyway.
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    }));
  });
}

/**
 * Hands text typed before the full island to it: React keeps what it last rendered in a tracker
 * on the element, so the element's own setter first records the server's value there, the
 * prototype's setter puts the typed text back, and an `input` event lets the box's change
 * handler (the autocomplete, then the debounced search) see it as typing. Caret and focus stay.
 */
export function handOverTypedQuery(
  input: HTMLInputElement,
  typed: string,
  serverValue: string,
  selection: { selectionStart: number | null; selectionEnd: number | null; at?: number } = input,
): void {
  if (typed === serverValue) return;
  const { selectionStart, selectionEnd } = selection;
  input.value = serverValue;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, typed);
  // The debounce counts from the last keystroke, not from this hand-over.
  input.dispatchEvent(Object.assign(new Event('input', { bubbles: true }), selection.at === undefined ? {} : { [TYPED_AT_PROPERTY]: selection.at }));
  if (input.ownerDocument.activeElement === input && selectionStart !== null) input.setSelectionRange(selectionStart, selectionEnd);
}

/** Held actions, carried out by the hydrated island (its handlers now listen on the same nodes). */
function replay(actions: HeldAction[]): void {
  for (const action of actions) {
    if (action.kind === 'submit') action.form.requestSubmit();
    else if (action.kind === 'load-more') action.link.click();
    else action.target.click();
  }
}

/** Held actions carried out without the full island: the link and the form do what they do without scripts. */
function replayNatively(actions: HeldAction[]): void {
  for (const action of actions) {
    if (action.kind === 'submit') action.form.submit();
    else if (action.kind === 'load-more') window.location.assign(action.link.href);
  }
}

/**
 * Builds the `SearchList` mount.
 * @param loadFull  Loads the full island. The expose passes `loadFullSearchList`: its own chunks,
 *   prefetched once the browser is idle.
 */
export function createSearchListMount(loadFull: () => Promise<FullSearchListModule>): IslandMount<SearchListIslandProps> {
  return (element, props, context) => {
    // A broken configuration keeps the server's fallback, at once, as the full island would.
    let settings: ReturnType<typeof readSearchServerSettings>;
    try {
      settings = readSearchServerSettings(context.config.search);
      searchListOptions(context.config.search, props);
    } catch (error) {
      logConfigurationError('mf-search/SearchList', error);
      throw error;
    }
    const server = isSearchListServerState(context.hydration?.state) ? context.hydration.state : undefined;
    if (!server) return loadFull().then(({ mountFullSearchList }) => mountFullSearchList(element, props, context));
    return bindUntilNeeded(element, props, context, server, settings, loadFull);
  };
}

function bindUntilNeeded(
  element: HTMLElement,
  props: SearchListIslandProps | undefined,
  context: IslandContext,
  server: SearchListServerState,
  settings: ReturnType<typeof readSearchServerSettings>,
  loadFull: () => Promise<FullSearchListModule>,
): Unmount | Promise<Unmount> {
  const answers = server.serverState.initialResults?.[settings.indexName]?.results as Array<{ userData?: unknown }> | undefined;
  const answer = answers?.[0] as { queryID?: unknown } | undefined;
  // The searches the server sent for this list: the first search for a typed query is sent from
  // here when the debounce ends, so its answer arrives while the full island loads and hydrates.
  const template = recordedSearches(answers);
  const earlyAnswers = createEarlyAnswers();
  let earlyTimer: ReturnType<typeof setTimeout> | undefined;
  let cancelEarlySearch = () => clearTimeout(earlyTimer);
  let handedOver = false;
  // One query id for the server's answer: its click events carry it and its site-search record
  // and a later conversion name it (the search server gives none of its own).
  const queryId = typeof answer?.queryID === 'string' ? answer.queryID : newQueryId();
  const insights = connectServerHitsInsights({
    endpoint: context.config.calls.insights,
    index: settings.indexName,
    queryID: queryId,
    bus: context.bus,
    getConsent: context.getConsent,
  });
  let unmounted = false;
  let unmountFull: Unmount | undefined;
  let openedQueryReported = false;
  const setStage = (stage: string) => element.setAttribute(SEARCH_LIST_STAGE_ATTRIBUTE, stage);
  // Back or forward to an entry the full island pushed before a reload: only the full island
  // follows the address in place; until it runs, the server renders the entry's list. The address
  // the server rendered comes with its state: back or forward may have moved the window's before
  // this script ran (the server HTML shows long before), and then no popstate comes any more.
  const facetAttributes = searchListOptions(context.config.search, props).facets.map((facet) => facet.attribute);
  const currentAddress = () => listAddress(window.location.href, facetAttributes);
  const renderedAddress = server.address ?? currentAddress();
  const onHistoryMove = () => {
    if (currentAddress() !== renderedAddress) window.location.reload();
  };
  window.addEventListener('popstate', onHistoryMove);
  onHistoryMove();
  const upgrade = async (binding: SearchListBinding) => {
    setStage('loading');
    binding.shieldTyping();
    const serverValue = binding.input.defaultValue;
    try {
      const { mountFullSearchList } = await loadFull();
      if (unmounted) return;
      // The binding keeps holding clicks while React hydrates; it lets go once the island is live.
      const unmount = await mountFullSearchList(element, props, context, { viewedObjectIds: insights.viewed, openedQueryReported, earlyAnswers, untilHydrated: true });
      if (unmounted) return unmount();
      unmountFull = unmount;
      // From now on the hydrated box's own debounce searches (taking an early answer already sent).
      handedOver = true;
      cancelEarlySearch();
    } catch (error) {
      console.error('[mf-search/SearchList] the full search list failed to load; the list keeps working as links and a form', error);
      setStage('failed');
      replayNatively(binding.release());
      return;
    }
    insights.stop();
    window.removeEventListener('popstate', onHistoryMove);
    const held = binding.release();
    const typed = binding.typed();
    if (typed) handOverTypedQuery(binding.input, typed.value, serverValue, typed);
    await afterTwoFrames();
    replay(held);
    // The hydrated list keeps its own room for the coming page (rendered by the replayed click).
    binding.clearPendingHits();
    setStage('interactive');
  };
  let binding: SearchListBinding | null = null;
  let upgrading = false;
  let lastEarlyQuery: string | undefined;
  // One search per debounce window, as the hydrated box: `SEARCH_DEBOUNCE_MS` after the press of
  // the last key, and only once the keys a long task held back were seen (`autocomplete/typedAt.ts`).
  const scheduleEarlySearch = () => {
    const typed = binding?.typed();
    if (!template || !typed || handedOver) return;
    lastEarlyQuery ??= binding!.input.defaultValue;
    cancelEarlySearch();
    const search = () => {
      const last = binding!.typed();
      // (A key that came in meanwhile rescheduled this search: each input does.)
      if (handedOver || !last || last.value === lastEarlyQuery) return;
      lastEarlyQuery = last.value;
      const searches = searchesForQuery(template, last.value);
      earlyAnswers.put(searches, fetchEarlyAnswer(settings, searches));
    };
    earlyTimer = setTimeout(() => {
      cancelEarlySearch = afterPendingInput(search);
    }, debounceRemaining(typed.at, SEARCH_DEBOUNCE_MS));
    cancelEarlySearch = () => clearTimeout(earlyTimer);
  };
  const upgradeNow = () => {
    if (upgrading || unmounted) return;
    upgrading = true;
    void upgrade(binding!);
  };
  binding = bindSearchList(element, {
    hitsPerPage: settings.hitsPerPage,
    // At once, on the first sign (a tap or focus on the box comes before the first key): loading
    // and hydrating then overlap the typing and the 500 ms debounce instead of following them.
    // The keys stay with the native box meanwhile (React hydrates in slices between them).
    // Queued: the binding reports a box focused before it during its own setup.
    onInteraction: () => {
      scheduleEarlySearch();
      if (!upgrading) queueMicrotask(upgradeNow);
    },
    onHitOpened: (objectID, position) => insights.openedHit(objectID, position),
  });
  if (!binding) {
    insights.stop();
    window.removeEventListener('popstate', onHistoryMove);
    return loadFull().then(({ mountFullSearchList }) => mountFullSearchList(element, props, context));
  }
  setStage('bound');
  insights.viewedHits(binding.hitIds());
  // Once the browser is idle: the full island's own chunks, and React, shared, from whichever remote
  // the page's runtime picks (`prefetchSharedModules.ts`; WebKit has no requestIdleCallback).
  const whenIdle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
  whenIdle(() => {
    if (!upgrading && !unmounted) prefetch([...exposeAsyncFiles('SearchList'), ...sharedModuleFiles(FULL_LIST_SHARED_MODULES)]);
  }, { timeout: 3000 });
  // Opening the page with `?q=` is a submission, tracked once its answer is there: the server's is.
  // Its query and filters are those of the address the server answered (its hit count is that
  // answer's), not the window's now: on a slow page the window's may have moved on meanwhile.
  const openedParams = new URLSearchParams(renderedAddress);
  const opened = openedParams.get('q')?.trim() ?? '';
  const answered = answer as { query?: unknown; nbHits?: unknown } | undefined;
  const hitCount = answered?.nbHits;
  openedQueryReported = opened !== '' && typeof hitCount === 'number' && String(answered?.query ?? '').trim() === opened;
  if (openedQueryReported) {
    // The filters the page was opened with, as its address keeps them (one repeated key per facet;
    // read here, not through the router's module, which would bring the autocomplete's code along).
    const { facets } = searchListOptions(context.config.search, props);
    const filters = Object.fromEntries(facets.map(({ attribute }) => [attribute, openedParams.getAll(attribute).filter((value) => value !== '')]));
    reportSiteSearch(context, { query: opened, hitCount: hitCount as number, filters, objectIds: binding.hitIds(), queryId });
  }
  return () => {
    unmounted = true;
    cancelEarlySearch();
    insights.stop();
    window.removeEventListener('popstate', onHistoryMove);
    binding.release();
    binding.clearPendingHits();
    unmountFull?.();
    element.removeAttribute(SEARCH_LIST_STAGE_ATTRIBUTE);
  };
}

/**
 * `mf-search/SearchList`: binds the server-rendered list without a framework (the first view
 * loads no React and no InstantSearch) and loads the full island when the visitor starts to
 * search or filter. Without server markup it loads the full island at once.
 */
const mount = createSearchListMount(() => loadFullSearchList());

export default mount;
