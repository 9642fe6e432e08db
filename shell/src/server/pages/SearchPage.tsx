import { SEARCH_INPUT_MAX_LENGTH, type PageConfig } from 'contracts';
import { Island } from './Island.js';

export interface SearchPageProps {
  config: PageConfig;
  /** Query from the address (`?q=`). Default empty. */
  query?: string;
}

/** The search page's main island; its remote is preloaded for the first view. */
export const SEARCH_LIST_ISLAND = 'mf-search/SearchList';

/** The search list screen; the search remote mounts over a plain GET form. */
export function SearchPage({ config, query = '' }: SearchPageProps) {
  return (
    <section className="search-page" aria-labelledby="search-title">
      <h1 id="search-title">Search articles</h1>
      <Island name={SEARCH_LIST_ISLAND} props={{ hideResults: config.search.hideResults }}>
        <form role="search" aria-label="Article search" action={config.calls.searchPage} method="get" className="search-fallback">
          <label htmlFor="search-page-input">{config.i18n.searchLabel}</label>
          <input id="search-page-input" type="search" name="q" defaultValue={query} maxLength={SEARCH_INPUT_MAX_LENGTH} />
          <button type="submit">{config.i18n.searchLabel}</button>
        </form>
      </Island>
    </section>
  );
}
