import {
  AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS,
  AUTOCOMPLETE_STALL_THRESHOLD_MS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_INPUT_MAX_LENGTH,
} from 'contracts';
import { filterSuggestions, type Suggestion, type SuggestionSource } from './suggestions.js';

/** Autocomplete states of specification point 4. */
export type AutocompleteStatus = 'idle' | 'loading' | 'stalled' | 'open' | 'closed';

/** What the combobox shows; a new object after every change (a snapshot for `useSyncExternalStore`). */
export interface AutocompleteState {
  /** Text in the box. */
  inputValue: string;
  status: AutocompleteStatus;
  /** Suggestions shown in the panel (filtered by containment, at most `SUGGESTIONS_SHOWN`). */
  suggestions: Suggestion[];
  /** Suggestion tags of the empty box (fetched once, or given). */
  tags: string[];
  /** Index of the active suggestion, -1 for none. */
  activeIndex: number;
}

/** Where the machine's answers go; read at each use, so they may change between calls. */
export interface AutocompleteHandlers {
  /** Where suggestions come from. */
  source: SuggestionSource;
  /** The debounced query fired (after `SEARCH_DEBOUNCE_MS`, or at once on select/clear/flush). Default none. */
  onQuery?: (query: string) => void;
  /** A suggestion was chosen (Enter on the active one, or a click), with its 1-based position. */
  onSelect: (suggestion: Suggestion, position: number) => void;
  /** Suggestions stayed on screen for `AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS` (insights view event). Default none. */
  onItemsViewed?: (suggestions: Suggestion[]) => void;
}

/** The clock the machine's delays run on. Default: the global timers and `performance.now()`, looked up at each call (fake timers in tests apply). */
export interface AutocompleteClock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  now(): number;
}

const globalClock: AutocompleteClock = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** Keys the combobox input handles; others pass. */
export type AutocompleteKey = 'Escape' | 'ArrowDown' | 'ArrowUp' | 'Enter' | 'Tab' | string;

/** The autocomplete state machine, free of any UI framework (`useAutocomplete` is its React hook). */
export interface AutocompleteMachine {
  getState(): AutocompleteState;
  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Replaces the handlers (the latest callbacks are always the ones called). */
  setHandlers(handlers: AutocompleteHandlers): void;
  /** Fetches the suggestion tags for the empty box once, unless tags were given; returns the cancel (a late answer is then dropped). */
  loadTags(): () => void;
  /** Ends every pending delay (typing, stall, items view); the machine stays usable. */
  stop(): void;
  /** Typing: sets the text and fires it `SEARCH_DEBOUNCE_MS` after `typedAt` (a `clock.now()` time; default now). */
  type(value: string, typedAt?: number): void;
  /** Sets the text and fires it at once (tags, clearing). */
  setQueryNow(value: string): void;
  /** Sets the text without firing it or opening the panel (state restored from the address). */
  replaceInputValue(value: string): void;
  /** Fires a pending typed query at once (form submit). */
  flush(): void;
  setActiveIndex(index: number): void;
  /** Chooses the suggestion at `index`. */
  select(index: number): void;
  /** Closes the panel (Tab, outside click); an answer on its way then keeps it closed. */
  close(): void;
  /** Handles a key of the combobox input; returns true when the key's default action must be prevented. */
  keyDown(key: AutocompleteKey): boolean;
}

/** Cuts a query to the search input's maximum length. */
export function cutQuery(value: string): string {
  return value.length > SEARCH_INPUT_MAX_LENGTH ? value.slice(0, SEARCH_INPUT_MAX_LENGTH) : value;
}

/** One delayed call that a newer one replaces. */
function createDelay(clock: AutocompleteClock) {
  let timer: unknown;
  let pending: (() => void) | undefined;
  const run = () => {
    timer = undefined;
    const call = pending;
    pending = undefined;
    call?.();
  };
  return {
    schedule(ms: number, call: () => void) {
      pending = call;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = clock.setTimeout(run, ms);
    },
    flush() {
      if (timer !== undefined) clock.clearTimeout(timer);
      run();
    },
    cancel() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}

/**
 * Autocomplete logic behind a WAI-ARIA combobox, as a state machine: debounced queries and
 * suggestion requests, the idle/loading/stalled/open/closed states (stalled after
 * `AUTOCOMPLETE_STALL_THRESHOLD_MS` without an answer; only the newest request's answer counts),
 * keyboard paths and the items-view event. It owns its three delays (typing, stall, items view).
 * @param initial.initialQuery  Text in the box at start (cut to `SEARCH_INPUT_MAX_LENGTH`). Default empty.
 * @param initial.initialTags  Tags the server already fetched: shown at once, not fetched again. Default none.
 * @param clock  Default the global timers.
 */
export function createAutocompleteMachine(
  handlers: AutocompleteHandlers,
  initial: { initialQuery?: string; initialTags?: string[] } = {},
  clock: AutocompleteClock = globalClock,
): AutocompleteMachine {
  let current = handlers;
  let state: AutocompleteState = { inputValue: cutQuery(initial.initialQuery ?? ''), status: 'idle', suggestions: [], tags: initial.initialTags ?? [], activeIndex: -1 };
  const listeners = new Set<() => void>();
  const typing = createDelay(clock);
  const viewReport = createDelay(clock);
  let stallTimer: unknown;
  let requestId = 0;
  // Set when the visitor closed the panel while an answer was on its way: it then stays closed.
  let dismissed = false;

  const update = (patch: Partial<AutocompleteState>): void => {
    const before = state;
    state = { ...state, ...patch };
    if (state.status !== before.status || state.suggestions !== before.suggestions) reportViewWhenShown();
    for (const listener of listeners) listener();
  };
  // Suggestions that stay open for the view delay are reported once (a change restarts the wait).
  const reportViewWhenShown = (): void => {
    if (state.status === 'open' && state.suggestions.length > 0) {
      const shown = state.suggestions;
      viewReport.schedule(AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS, () => current.onItemsViewed?.(shown));
    } else viewReport.cancel();
  };
  const clearStall = (): void => {
    if (stallTimer !== undefined) clock.clearTimeout(stallTimer);
    stallTimer = undefined;
  };

  const fetchSuggestions = (query: string): void => {
    const id = ++requestId;
    clearStall();
    dismissed = false;
    if (query.trim() === '') {
      update({ activeIndex: -1, suggestions: [], status: 'idle' });
      return;
    }
    update({ activeIndex: -1, status: 'loading' });
    stallTimer = clock.setTimeout(() => {
      if (requestId === id) update({ status: 'stalled' });
    }, AUTOCOMPLETE_STALL_THRESHOLD_MS);
    current.source(query).then(
      (answer) => {
        if (requestId !== id) return;
        clearStall();
        const shown = filterSuggestions(answer.suggestions, query);
        update({ suggestions: shown, status: shown.length > 0 && !dismissed ? 'open' : 'closed' });
      },
      (error: unknown) => {
        if (requestId !== id) return;
        clearStall();
        console.error('[mf-search] autocomplete suggestions failed', error);
        update({ suggestions: [], status: 'closed' });
      },
    );
  };

  const fire = (query: string): void => {
    current.onQuery?.(query);
    fetchSuggestions(query);
  };

  const machine: AutocompleteMachine = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setHandlers(next) {
      current = next;
    },
    loadTags() {
      if (initial.initialTags !== undefined) return () => {};
      let live = true;
      current.source('').then(
        (answer) => {
          if (live) update({ tags: answer.tags });
        },
        (error: unknown) => console.error('[mf-search] suggestion tags failed', error),
      );
      return () => {
        live = false;
      };
    },
    stop() {
      typing.cancel();
      viewReport.cancel();
      clearStall();
    },
    type(value, typedAt) {
      const query = cutQuery(value);
      update({ inputValue: query });
      const wait = typedAt === undefined ? SEARCH_DEBOUNCE_MS : Math.max(0, Math.min(SEARCH_DEBOUNCE_MS, SEARCH_DEBOUNCE_MS - (clock.now() - typedAt)));
      typing.schedule(wait, () => fire(query));
    },
    setQueryNow(value) {
      const query = cutQuery(value);
      typing.cancel();
      update({ inputValue: query });
      fire(query);
    },
    replaceInputValue(value) {
      typing.cancel();
      requestId++;
      clearStall();
      update({ inputValue: cutQuery(value), suggestions: [], activeIndex: -1, status: 'idle' });
    },
    flush: () => typing.flush(),
    setActiveIndex(index) {
      update({ activeIndex: index });
    },
    select(index) {
      const suggestion = state.suggestions[index];
      if (!suggestion) return;
      typing.cancel();
      requestId++;
      clearStall();
      update({ inputValue: suggestion.title, status: 'closed', activeIndex: -1 });
      current.onSelect(suggestion, index + 1);
    },
    close() {
      dismissed = true;
      clearStall();
      update({ status: state.status === 'idle' ? 'idle' : 'closed', activeIndex: -1 });
    },
    keyDown(key) {
      const { status, suggestions, activeIndex } = state;
      const count = suggestions.length;
      switch (key) {
        case 'Escape':
          if (status === 'open' || status === 'loading' || status === 'stalled') machine.close();
          else machine.setQueryNow('');
          return true;
        case 'ArrowDown':
        case 'ArrowUp': {
          if (count === 0) return false;
          const down = key === 'ArrowDown';
          if (status !== 'open') update({ status: 'open', activeIndex: down ? 0 : count - 1 });
          else update({ activeIndex: nextActiveIndex(activeIndex, count, down) });
          return true;
        }
        case 'Enter':
          if (status !== 'open' || activeIndex < 0) return false;
          machine.select(activeIndex);
          return true;
        case 'Tab':
          machine.close();
          return false;
        default:
          return false;
      }
    },
  };
  return machine;
}

/** The active suggestion after an arrow key: down from the last wraps to the first, up from none or the first to the last. */
export function nextActiveIndex(activeIndex: number, count: number, down: boolean): number {
  if (down) return (activeIndex + 1) % count;
  return activeIndex <= 0 ? count - 1 : activeIndex - 1;
}
