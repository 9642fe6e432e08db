import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { SearchContext, SearchI18n } from 'contracts';
import { useResultsHidden, type ResultsHiddenFlag } from '../hooks/useResultsHidden.js';

/** The search context of specification point 3, with the flag's toggle and setter. */
export type SearchListContext = SearchContext & Pick<ResultsHiddenFlag, 'toggleResultsHidden' | 'setResultsHidden'>;

const Context = createContext<SearchListContext | null>(null);

export interface SearchContextProviderProps {
  /** The hide-results option: results stay hidden until a query exists. */
  hideResults: boolean;
  /** Results-hidden flag at start. Default `false`. */
  initialResultsHidden?: boolean;
  /** Viewing and load-more texts. */
  i18n: SearchI18n;
  children: ReactNode;
}

/** Provides the search context to the list screen. */
export function SearchContextProvider({ hideResults, initialResultsHidden = false, i18n, children }: SearchContextProviderProps) {
  const { resultsHidden, toggleResultsHidden, setResultsHidden } = useResultsHidden(initialResultsHidden);
  const value = useMemo<SearchListContext>(
    () => ({ search: { resultsHidden }, i18n, resultsHidden, hideResults, toggleResultsHidden, setResultsHidden }),
    [resultsHidden, i18n, hideResults, toggleResultsHidden, setResultsHidden],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** The search context; throws outside `SearchContextProvider`. */
export function useSearchListContext(): SearchListContext {
  const value = useContext(Context);
  if (!value) throw new Error('useSearchListContext needs a SearchContextProvider');
  return value;
}
