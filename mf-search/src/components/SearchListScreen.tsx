import { useEffect, useRef } from 'react';
import { useInstantSearch, useSearchBox } from 'react-instantsearch';
import type { SuggestionSource } from '../autocomplete/suggestions.js';
import type { ChipOptions } from '../config/chipOptions.js';
import { REFUSED_SEARCH_TEXT, refusedSearchReason } from '../config/refusedSearches.js';
import type { ValidFacetOptions } from '../config/facetOptions.js';
import { FilterChips } from '../filters/FilterChips.js';
import { FilterPanel } from '../filters/FilterPanel.js';
import { CurationBannerBox } from '../hits/CurationBannerBox.js';
import { curationBannerOf } from '../hits/curationBanner.js';
import { InfiniteHitList } from '../hits/InfiniteHitList.js';
import { resultsVisibility } from '../hooks/resultsVisibility.js';
import { useSearchStatus } from '../hooks/useSearchStatus.js';
import type { AutocompleteInsights } from '../insights/autocompleteInsights.js';
import type { SubmittedSearch } from '../tracking/siteSearchReport.js';
import { useSearchSubmitted } from '../tracking/useSearchSubmitted.js';
import { ListSearchBox } from './ListSearchBox.js';
import { useSearchListContext } from './SearchContextProvider.js';

/** Texts of the list screen (from `config.i18n`). */
export interface SearchListTexts {
  searchLabel: string;
  searchPlaceholder: string;
  filter: string;
  noResults: string;
}

export interface SearchListScreenProps {
  /** Reports a submitted search once answered (`reportSiteSearch`: the bus's `search-submitted` and site-search tracking). */
  reportSearch: (search: SubmittedSearch) => void;
  /** Texts of the screen. */
  texts: SearchListTexts;
  /** Autocomplete suggestions. */
  source: SuggestionSource;
  /** Validated facets for the filter panel. */
  facets: ValidFacetOptions[];
  /** Which filters get chips. */
  chips: ChipOptions;
  /** Autocomplete insights events. */
  insights: AutocompleteInsights;
  /** Query the page was opened with (`?q=`), tracked as a submission once answered. Default empty. */
  openedWithQuery?: string;
  /** Suggestion tags the server fetched. Default: fetched in the browser. */
  initialTags?: string[];
}

/** The search list screen: search box, filters, chips and the results area. */
export function SearchListScreen({ reportSearch, texts, source, facets, chips, insights, openedWithQuery = '', initialTags }: SearchListScreenProps) {
  const status = useSearchStatus();
  const { results } = useInstantSearch({ catchError: true });
  const { query } = useSearchBox();
  const { resultsHidden, hideResults, i18n } = useSearchListContext();
  const markSubmitted = useSearchSubmitted(reportSearch);

  // Only the query the page was opened with, once; later submissions mark themselves.
  const openedQueryMarked = useRef(false);
  useEffect(() => {
    if (openedQueryMarked.current) return;
    openedQueryMarked.current = true;
    if (openedWithQuery) markSubmitted(openedWithQuery);
  }, [openedWithQuery, markSubmitted]);

  const answered = results && !(results as { __isArtificial?: boolean }).__isArtificial;
  // The server refused the visitor's search (e.g. too many words): say so instead of "no results".
  const refused = answered ? refusedSearchReason(results) !== undefined : false;
  // An editor's curation rule may send a banner with its results (server-rendered and hydrated from the same answer).
  const banner = answered && !refused ? curationBannerOf(results) : undefined;
  const visibility = resultsVisibility({ resultsHidden, hideResults, query, nbHits: answered ? results.nbHits : undefined });

  return (
    <section
      className="khs-search-list"
      data-status={status}
      data-results={visibility}
      data-query={answered ? (results.query ?? '') : undefined}
      data-refused={refused ? 'true' : undefined}
      aria-busy={status === 'loading' || status === 'stalled'}>
      <ListSearchBox source={source} label={texts.searchLabel} placeholder={texts.searchPlaceholder} onSubmitted={markSubmitted} insights={insights} initialTags={initialTags} />
      <FilterPanel facets={facets} hasQuery={query.trim() !== ''} label={texts.filter} />
      <FilterChips {...chips} />
      <div className="khs-search-list__results" hidden={visibility !== 'results'}>
        {banner ? <CurationBannerBox banner={banner} /> : null}
        <InfiniteHitList viewingLabel={i18n.viewing} loadMoreLabel={i18n.loadMore} busy={status === 'loading' || status === 'stalled'} />
      </div>
      <p className="khs-search-list__no-results" role="status">
        {refused && visibility !== 'hidden' ? REFUSED_SEARCH_TEXT : visibility === 'no-hits' && status !== 'error' ? texts.noResults : ''}
      </p>
    </section>
  );
}
