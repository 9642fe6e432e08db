import {
  AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS,
  AUTOCOMPLETE_STALL_THRESHOLD_MS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_INPUT_MAX_LENGTH,
} from 'contracts';
import { filterSuggestions, type Suggestion, type SuggestionSource } from './suggestions.js';
import { afterPendingInput, debounceRemaining } from './typedAt.js';

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
  /**
   * Runs `run` once no input waits for dispatch (keys a long task held back go first: they may
   * start a new debounce window); returns the cancel. Default: at once.
   */
  afterPendingInput?(run: () => void): () => void;
}

const globalClock: AutocompleteClock = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
  afterPendingInput,
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

/**
 * One delayed call that a newer one replaces. With `yieldToInput`, when the time is up the call
 * still lets input waiting for dispatch go first (`clock.afterPendingInput`).
 */
function createDelay(clock: AutocompleteClock, { yieldToInput = false }: { yieldToInput?: boolean } = {}) {
  let timer: unknown;
  let pending: (() => void) | undefined;
  let stopWaitingForInput: (() => void) | undefined;
  const stopTimers = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    stopWaitingForInput?.();
    stopWaitingForInput = undefined;
  };
  const run = () => {
    stopTimers();
    const call = pending;
    pending = undefined;
    call?.();
  };
  const timeUp = () => {
    timer = undefined;
    if (yieldToInput && clock.afterPendingInput) stopWaitingForInput = clock.afterPendingInput(run);
    else run();
  };
  return {
    schedule(ms: number, call: () => void) {
      pending = call;
      stopTimers();
      timer = clock.setTimeout(timeUp, ms);
    },
    flush: run,
    cancel() {
      stopTimers();
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
  return new Autocompletion(handlers, initial, clock);
}

/** `AutocompleteMachine`; its methods are bound (a hook hands them out as they are). */
class Autocompletion implements AutocompleteMachine {
  private state: AutocompleteState;
  private readonly listeners = new Set<() => void>();
  private readonly typing: ReturnType<typeof createDelay>;
  private readonly viewReport: ReturnType<typeof createDelay>;
  private stallTimer: unknown;
  private requestId = 0;
  // Set when the visitor closed the panel while an answer was on its way: it then stays closed.
  private dismissed = false;

  constructor(
    private handlers: AutocompleteHandlers,
    private readonly initial: { initialQuery?: string; initialTags?: string[] },
    private readonly clock: AutocompleteClock,
  ) {
    this.state = { inputValue: cutQuery(initial.initialQuery ?? ''), status: 'idle', suggestions: [], tags: initial.initialTags ?? [], activeIndex: -1 };
    this.typing = createDelay(clock, { yieldToInput: true });
    this.viewReport = createDelay(clock);
  }

  getState = (): AutocompleteState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setHandlers = (handlers: AutocompleteHandlers): void => {
    this.handlers = handlers;
  };

  loadTags = (): (() => void) => {
    if (this.initial.initialTags !== undefined) return () => {};
    let live = true;
    this.handlers.source('').then(
      (answer) => {
        if (live) this.update({ tags: answer.tags });
      },
      (error: unknown) => console.error('[mf-search] suggestion tags failed', error),
    );
    return () => {
      live = false;
    };
  };

  stop = (): void => {
    this.typing.cancel();
    this.viewReport.cancel();
    this.clearStall();
  };

  type = (value: string, typedAt?: number): void => {
    const query = cutQuery(value);
    this.update({ inputValue: query });
    const wait = typedAt === undefined ? SEARCH_DEBOUNCE_MS : debounceRemaining(typedAt, SEARCH_DEBOUNCE_MS, this.clock.now());
    this.typing.schedule(wait, () => this.fire(query));
  };

  setQueryNow = (value: string): void => {
    const query = cutQuery(value);
    this.typing.cancel();
    this.update({ inputValue: query });
    this.fire(query);
  };

  replaceInputValue = (value: string): void => {
    this.typing.cancel();
    this.requestId++;
    this.clearStall();
    this.update({ inputValue: cutQuery(value), suggestions: [], activeIndex: -1, status: 'idle' });
  };

  flush = (): void => this.typing.flush();

  setActiveIndex = (index: number): void => this.update({ activeIndex: index });

  select = (index: number): void => {
    const suggestion = this.state.suggestions[index];
    if (!suggestion) return;
    this.typing.cancel();
    this.requestId++;
    this.clearStall();
    this.update({ inputValue: suggestion.title, status: 'closed', activeIndex: -1 });
    this.handlers.onSelect(suggestion, index + 1);
  };

  close = (): void => {
    this.dismissed = true;
    this.clearStall();
    this.update({ status: this.state.status === 'idle' ? 'idle' : 'closed', activeIndex: -1 });
  };

  keyDown = (key: AutocompleteKey): boolean => {
    const { status, suggestions, activeIndex } = this.state;
    const count = suggestions.length;
    switch (key) {
      case 'Escape':
        if (status === 'open' || status === 'loading' || status === 'stalled') this.close();
        else this.setQueryNow('');
        return true;
      case 'ArrowDown':
      case 'ArrowUp': {
        if (count === 0) return false;
        const down = key === 'ArrowDown';
        if (status !== 'open') this.update({ status: 'open', activeIndex: down ? 0 : count - 1 });
        else this.update({ activeIndex: nextActiveIndex(activeIndex, count, down) });
        return true;
      }
      case 'Enter':
        if (status !== 'open' || activeIndex < 0) return false;
        this.select(activeIndex);
        return true;
      case 'Tab':
        this.close();
        return false;
      default:
        return false;
    }
  };

  /** The debounced query: tells the page, then asks for its suggestions. */
  private fire(query: string): void {
    this.handlers.onQuery?.(query);
    this.fetchSuggestions(query);
  }

  private fetchSuggestions(query: string): void {
    const id = ++this.requestId;
    this.clearStall();
    this.dismissed = false;
    if (query.trim() === '') {
      this.update({ activeIndex: -1, suggestions: [], status: 'idle' });
      return;
    }
    this.update({ activeIndex: -1, status: 'loading' });
    this.stallTimer = this.clock.setTimeout(() => {
      if (this.requestId === id) this.update({ status: 'stalled' });
    }, AUTOCOMPLETE_STALL_THRESHOLD_MS);
    this.handlers.source(query).then(
      (answer) => {
        if (this.requestId !== id) return;
        this.clearStall();
        const shown = filterSuggestions(answer.suggestions, query);
        this.update({ suggestions: shown, status: shown.length > 0 && !this.dismissed ? 'open' : 'closed' });
      },
      (error: unknown) => {
        if (this.requestId !== id) return;
        this.clearStall();
        console.error('[mf-search] autocomplete suggestions failed', error);
        this.update({ suggestions: [], status: 'closed' });
      },
    );
  }

  /** A new state (a new snapshot object), then the listeners. */
  private update(patch: Partial<AutocompleteState>): void {
    const before = this.state;
    this.state = { ...this.state, ...patch };
    if (this.state.status !== before.status || this.state.suggestions !== before.suggestions) this.reportViewWhenShown();
    for (const listener of this.listeners) listener();
  }

  /** Suggestions that stay open for the view delay are reported once (a change restarts the wait). */
  private reportViewWhenShown(): void {
    const { status, suggestions } = this.state;
    if (status === 'open' && suggestions.length > 0) this.viewReport.schedule(AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS, () => this.handlers.onItemsViewed?.(suggestions));
    else this.viewReport.cancel();
  }

  private clearStall(): void {
    if (this.stallTimer !== undefined) this.clock.clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }
}

/** The active suggestion after an arrow key: down from the last wraps to the first, up from none or the first to the last. */
export function nextActiveIndex(activeIndex: number, count: number, down: boolean): number {
  if (down) return (activeIndex + 1) % count;
  return activeIndex <= 0 ? count - 1 : activeIndex - 1;
}
