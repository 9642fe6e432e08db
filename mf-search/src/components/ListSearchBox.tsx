import { useEffect, useRef, type FormEvent } from 'react';
import { useSearchBox } from 'react-instantsearch';
import { SearchCombobox } from '../autocomplete/SearchCombobox.js';
import { SuggestionTags } from '../autocomplete/SuggestionTags.js';
import type { SuggestionSource } from '../autocomplete/suggestions.js';
import { useAutocomplete } from '../autocomplete/useAutocomplete.js';
import type { AutocompleteInsights } from '../insights/autocompleteInsights.js';

/** User Timing mark set when a query fires (the benchmark measures from it to the painted results). */
export const QUERY_FIRED_MARK = 'mf-search:query-fired';

export interface ListSearchBoxProps {
  /** Suggestions for the autocomplete. */
  source: SuggestionSource;
  /** Input label (`i18n.searchLabel`). */
  label: string;
  /** Input placeholder (`i18n.searchPlaceholder`). */
  placeholder: string;
  /** A query was submitted (Enter, a suggestion or a tag). */
  onSubmitted: (query: string) => void;
  /** Autocomplete insights events. */
  insights: AutocompleteInsights;
  /** Suggestion tags the server fetched (not fetched again). Default: fetched in the browser. */
  initialTags?: string[];
}

/**
 * The search list's search box: typing refines the search after the debounce, Enter submits at
 * once, suggestions and tags submit their text. Back/forward and reload put the address's query
 * back into the box without opening suggestions.
 */
export function ListSearchBox({ source, label, placeholder, onSubmitted, insights, initialTags }: ListSearchBoxProps) {
  const { query, refine } = useSearchBox();
  const fired = useRef(query);
  const refineQuery = (value: string) => {
    fired.current = value;
    performance.mark(QUERY_FIRED_MARK, { detail: value });
    refine(value);
  };
  const autocomplete = useAutocomplete({
    source,
    initialQuery: query,
    onQuery: refineQuery,
    onSelect: (suggestion) => {
      insights.selected(suggestion);
      refineQuery(suggestion.title);
      onSubmitted(suggestion.title);
    },
    onItemsViewed: insights.viewed,
    withTags: true,
    initialTags,
  });
  const { replaceInputValue } = autocomplete;

  useEffect(() => {
    if (query !== fired.current) {
      fired.current = query;
      replaceInputValue(query);
    }
  }, [query, replaceInputValue]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    autocomplete.flush();
    autocomplete.close();
    if (fired.current !== autocomplete.inputValue) refineQuery(autocomplete.inputValue);
    onSubmitted(autocomplete.inputValue);
  };

  return (
    <form role="search" aria-label="Article search" className="khs-search-list__form" onSubmit={submit} noValidate>
      <SearchCombobox autocomplete={autocomplete} label={label} placeholder={placeholder} />
      <SuggestionTags
        tags={autocomplete.tags}
        onChoose={(tag) => {
          autocomplete.setQueryNow(tag);
          autocomplete.close();
          onSubmitted(tag);
        }}
      />
    </form>
  );
}
