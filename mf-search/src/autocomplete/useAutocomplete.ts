import { useCallback, useEffect, useReducer, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { createAutocompleteMachine, type AutocompleteHandlers, type AutocompleteStatus } from './autocompleteMachine.js';
import type { Suggestion, SuggestionSource } from './suggestions.js';

export { cutQuery, type AutocompleteStatus } from './autocompleteMachine.js';

export interface UseAutocompleteOptions {
  /** Where suggestions come from. */
  source: SuggestionSource;
  /** Text in the box at start (cut to `SEARCH_INPUT_MAX_LENGTH`). Default empty. */
  initialQuery?: string;
  /** The debounced query fired (after `SEARCH_DEBOUNCE_MS`, or at once on select/clear/flush). Default none. */
  onQuery?: (query: string) => void;
  /** A suggestion was chosen (Enter on the active one, or a click). */
  onSelect: (suggestion: Suggestion, position: number) => void;
  /** Suggestions stayed on screen for `AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS` (insights view event). Default none. */
  onItemsViewed?: (suggestions: Suggestion[]) => void;
  /** Fetch suggestion tags for the empty box. Default `false`. */
  withTags?: boolean;
  /** Tags the server already fetched: shown at once, not fetched again. Default none. */
  initialTags?: string[];
}

export interface Autocomplete {
  /** Text in the box. */
  inputValue: string;
  /**
   * Replaces the text (typing); fires the query debounced: `SEARCH_DEBOUNCE_MS` after
   * `typedAt` (the keystroke's `performance.now()` time; default now).
   */
  setInputValue(value: string, typedAt?: number): void;
  /** Sets the text and fires it at once (tags, clearing). */
  setQueryNow(value: string): void;
  /** Sets the text without firing it or opening the panel (state restored from the address). */
  replaceInputValue(value: string): void;
  /** Fires a pending debounced query at once (form submit). */
  flush(): void;
  status: AutocompleteStatus;
  /** Suggestions shown in the panel (filtered by containment, at most `SUGGESTIONS_SHOWN`). */
  suggestions: Suggestion[];
  /** Suggestion tags, empty once a query exists. */
  tags: string[];
  /** Index of the active suggestion, -1 for none. */
  activeIndex: number;
  setActiveIndex(index: number): void;
  /** Chooses the suggestion at `index`. */
  select(index: number): void;
  /** Closes the panel (Tab, outside click). */
  close(): void;
  /** Keyboard handling of the combobox input (Escape, arrows, Enter, Tab). */
  onKeyDown(event: KeyboardEvent<HTMLInputElement>): void;
}

/**
 * Autocomplete logic behind a WAI-ARIA combobox: a thin React hook over the framework-free
 * `createAutocompleteMachine` (debounced suggestion requests, the idle/loading/stalled/open/closed
 * states, keyboard paths and the items-view event, with its own delays). One machine per
 * mounted box; the latest callbacks are always the ones called.
 */
export function useAutocomplete({
  source,
  initialQuery = '',
  onQuery,
  onSelect,
  onItemsViewed,
  withTags = false,
  initialTags,
}: UseAutocompleteOptions): Autocomplete {
  const handlers: AutocompleteHandlers = { source, onQuery, onSelect, onItemsViewed };
  const [machine] = useState(() => createAutocompleteMachine(handlers, { initialQuery, initialTags }));
  machine.setHandlers(handlers);
  const state = useSyncExternalStore(machine.subscribe, machine.getState, machine.getState);
  // A typed value is rendered in the event that typed it: right after a change event React puts
  // a controlled input back to its rendered value. The store's subscription is a passive effect,
  // still missing for a moment after hydration (a key then had the server's query come back, and
  // the next key was added to it). This update makes the event render the machine's new state
  // anyway; with the subscription in place React renders both in one pass.
  const [, renderTyped] = useReducer((renders: number) => renders + 1, 0);
  const setInputValue = useCallback(
    (value: string, typedAt?: number) => {
      machine.type(value, typedAt);
      renderTyped();
    },
    [machine],
  );
  // Tags: the most frequent topics, fetched once for the empty query.
  useEffect(() => (withTags ? machine.loadTags() : undefined), [machine, source, withTags]);
  useEffect(() => () => machine.stop(), [machine]);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLInputElement>) => {
      if (machine.keyDown(event.key)) event.preventDefault();
    },
    [machine],
  );
  return {
    ...state,
    tags: state.inputValue.trim() === '' ? state.tags : [],
    setInputValue,
    setQueryNow: machine.setQueryNow,
    replaceInputValue: machine.replaceInputValue,
    flush: machine.flush,
    setActiveIndex: machine.setActiveIndex,
    select: machine.select,
    close: machine.close,
    onKeyDown,
  };
}
