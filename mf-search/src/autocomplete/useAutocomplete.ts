import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS,
  AUTOCOMPLETE_STALL_THRESHOLD_MS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_INPUT_MAX_LENGTH,
} from 'contracts';
import { useDebouncedCallback } from '../hooks/useDebouncedCallback.js';
import { filterSuggestions, type Suggestion, type SuggestionSource } from './suggestions.js';

/** Autocomplete states of specification point 4. */
export type AutocompleteStatus = 'idle' | 'loading' | 'stalled' | 'open' | 'closed';

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

/** Cuts a query to the search input's maximum length. */
export function cutQuery(value: string): string {
  return value.length > SEARCH_INPUT_MAX_LENGTH ? value.slice(0, SEARCH_INPUT_MAX_LENGTH) : value;
}

/**
 * Autocomplete logic behind a WAI-ARIA combobox: debounced suggestion requests, the
 * idle/loading/stalled/open/closed states, keyboard paths and the items-view event.
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
  const [inputValue, setInputValueState] = useState(() => cutQuery(initialQuery));
  const [status, setStatus] = useState<AutocompleteStatus>('idle');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [tags, setTags] = useState<string[]>(() => initialTags ?? []);
  const tagsGiven = useRef(initialTags !== undefined);
  const [activeIndex, setActiveIndex] = useState(-1);
  const requestId = useRef(0);
  const stallTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Set when the visitor closed the panel while an answer was on its way: it then stays closed.
  const dismissed = useRef(false);

  const fetchSuggestions = useCallback(
    (query: string) => {
      const id = ++requestId.current;
      clearTimeout(stallTimer.current);
      dismissed.current = false;
      setActiveIndex(-1);
      if (query.trim() === '') {
        setSuggestions([]);
        setStatus('idle');
        return;
      }
      setStatus('loading');
      stallTimer.current = setTimeout(() => {
        if (requestId.current === id) setStatus('stalled');
      }, AUTOCOMPLETE_STALL_THRESHOLD_MS);
      source(query).then(
        (answer) => {
          if (requestId.current !== id) return;
          clearTimeout(stallTimer.current);
          const shown = filterSuggestions(answer.suggestions, query);
          setSuggestions(shown);
          setStatus(shown.length > 0 && !dismissed.current ? 'open' : 'closed');
        },
        (error: unknown) => {
          if (requestId.current !== id) return;
          clearTimeout(stallTimer.current);
          console.error('[mf-search] autocomplete suggestions failed', error);
          setSuggestions([]);
          setStatus('closed');
        },
      );
    },
    [source],
  );

  const fire = useCallback(
    (query: string) => {
      onQuery?.(query);
      fetchSuggestions(query);
    },
    [onQuery, fetchSuggestions],
  );
  const fireDebounced = useDebouncedCallback(fire, SEARCH_DEBOUNCE_MS);

  // Tags: the most frequent topics, fetched once for the empty query.
  useEffect(() => {
    if (!withTags || tagsGiven.current) return;
    let live = true;
    source('').then(
      (answer) => live && setTags(answer.tags),
      (error: unknown) => console.error('[mf-search] suggestion tags failed', error),
    );
    return () => {
      live = false;
    };
  }, [source, withTags]);

  useEffect(() => () => clearTimeout(stallTimer.current), []);

  const setInputValue = useCallback(
    (value: string, typedAt?: number) => {
      const query = cutQuery(value);
      setInputValueState(query);
      if (typedAt === undefined) fireDebounced(query);
      else fireDebounced.since(typedAt, query);
    },
    [fireDebounced],
  );

  const setQueryNow = useCallback(
    (value: string) => {
      const query = cutQuery(value);
      fireDebounced.cancel();
      setInputValueState(query);
      fire(query);
    },
    [fire, fireDebounced],
  );

  const replaceInputValue = useCallback(
    (value: string) => {
      fireDebounced.cancel();
      requestId.current++;
      clearTimeout(stallTimer.current);
      setInputValueState(cutQuery(value));
      setSuggestions([]);
      setActiveIndex(-1);
      setStatus('idle');
    },
    [fireDebounced],
  );

  const close = useCallback(() => {
    dismissed.current = true;
    clearTimeout(stallTimer.current);
    setStatus((current) => (current === 'idle' ? 'idle' : 'closed'));
    setActiveIndex(-1);
  }, []);

  const select = useCallback(
    (index: number) => {
      const suggestion = suggestions[index];
      if (!suggestion) return;
      fireDebounced.cancel();
      requestId.current++;
      clearTimeout(stallTimer.current);
      setInputValueState(suggestion.title);
      setStatus('closed');
      setActiveIndex(-1);
      onSelect(suggestion, index + 1);
    },
    [suggestions, fireDebounced, onSelect],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLInputElement>) => {
      const count = suggestions.length;
      switch (event.key) {
        case 'Escape':
          event.preventDefault();
          if (status === 'open' || status === 'loading' || status === 'stalled') close();
          else setQueryNow('');
          break;
        case 'ArrowDown':
        case 'ArrowUp': {
          if (count === 0) return;
          event.preventDefault();
          const down = event.key === 'ArrowDown';
          if (status !== 'open') {
            setStatus('open');
            setActiveIndex(down ? 0 : count - 1);
            return;
          }
          setActiveIndex((index) => (down ? (index + 1) % count : index <= 0 ? count - 1 : index - 1));
          break;
        }
        case 'Enter':
          if (status === 'open' && activeIndex >= 0) {
            event.preventDefault();
            select(activeIndex);
          }
          break;
        case 'Tab':
          close();
          break;
      }
    },
    [suggestions, status, activeIndex, close, select, setQueryNow],
  );

  const reportView = useDebouncedCallback((shown: Suggestion[]) => onItemsViewed?.(shown), AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS);
  useEffect(() => {
    if (status === 'open' && suggestions.length > 0) reportView(suggestions);
    else reportView.cancel();
  }, [status, suggestions, reportView]);

  return {
    inputValue,
    setInputValue,
    setQueryNow,
    replaceInputValue,
    flush: fireDebounced.flush,
    status,
    suggestions,
    tags: inputValue.trim() === '' ? tags : [],
    activeIndex,
    setActiveIndex,
    select,
    close,
    onKeyDown,
  };
}
