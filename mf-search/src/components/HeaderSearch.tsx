import { useEffect, useMemo, useRef } from 'react';
import type { IslandContext } from 'contracts';
import { createLazySuggestionSource } from '../autocomplete/lazySuggestionSource.js';
import { SearchCombobox } from '../autocomplete/SearchCombobox.js';
import type { SuggestionSource } from '../autocomplete/suggestions.js';
import { useAutocomplete } from '../autocomplete/useAutocomplete.js';
import { useSearchInsights } from '../insights/useSearchInsights.js';

export interface HeaderSearchProps {
  /**
   * Loads the suggestion source (`loadHeaderSuggestionSource`: the search client code is its own
   * chunk). Called once (again only after a failed load), on the first focus, pointer-enter or
   * input; the first query waits for it.
   */
  loadSuggestions: () => Promise<SuggestionSource>;
  /** Index named in insights events. */
  indexName: string;
  /** Bus, config and consent of the page. */
  context: IslandContext;
  /** Text in the box at start (the page's `?q=`). Default empty. */
  initialQuery?: string;
  /** Goes to a URL (tests replace it). Default `location.assign`. */
  navigate?: (url: string) => void;
}

/** URL of the search page for a query. */
export function searchPageUrl(searchPage: string, query: string): string {
  return `${searchPage}?${new URLSearchParams({ q: query }).toString()}`;
}

/**
 * The header search box on every page: autocomplete suggestions; Enter goes to the search page
 * with the query (a plain GET form, so it also works before the script ran), or with the chosen
 * suggestion. It also reports an insights conversion when an article is saved to the watchlist.
 * The box works from the first render; the search client code is loaded on the first interaction
 * (most visitors of an article never search), and what is typed meanwhile is kept and searched.
 */
export function HeaderSearch({
  loadSuggestions,
  indexName,
  context,
  initialQuery = '',
  navigate = (url) => window.location.assign(url),
}: HeaderSearchProps) {
  const { config, bus } = context;
  const { client: insightsClient, autocomplete: insights } = useSearchInsights(context, indexName);
  // One lazy source for the island's life, so a loader re-created on render does not load again.
  const latestLoad = useRef(loadSuggestions);
  useEffect(() => {
    latestLoad.current = loadSuggestions;
  }, [loadSuggestions]);
  const suggestions = useMemo(() => createLazySuggestionSource(() => latestLoad.current()), []);
  const autocomplete = useAutocomplete({
    source: suggestions.source,
    initialQuery,
    onSelect: (suggestion) => {
      insights.selected(suggestion);
      navigate(searchPageUrl(config.calls.searchPage, suggestion.title));
    },
    onItemsViewed: insights.viewed,
  });

  // Saving an article after finding it is the conversion of the search (the header is on every page).
  useEffect(() => {
    if (!insightsClient) return;
    return bus.on('watchlist-added', ({ id, added }) => {
      if (added) insightsClient('convertedObjectIDs', { eventName: 'Article Saved', index: indexName, objectIDs: [id] });
    });
  }, [bus, insightsClient, indexName]);

  return (
    <form
      role="search"
      aria-label="Site search"
      action={config.calls.searchPage}
      method="get"
      className="khs-search-header"
      onSubmit={() => autocomplete.close()}
      // First signs of interest: start loading the search client before the first query needs it.
      onFocus={suggestions.preload}
      onPointerEnter={suggestions.preload}
      onInput={suggestions.preload}
    >
      <SearchCombobox
        autocomplete={autocomplete}
        label={config.i18n.searchLabel}
        placeholder={config.i18n.searchPlaceholder}
        hideLabel
        className="khs-search-header__combobox"
      />
      <button type="submit" className="khs-search-header__submit">
        {config.i18n.searchLabel}
      </button>
    </form>
  );
}
