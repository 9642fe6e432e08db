import type { SearchConfiguration } from 'contracts';
import { validateChipOptions, type ChipOptions } from '../config/chipOptions.js';
import { validateFacetOptions } from '../config/facetOptions.js';

/** The island's own props (`data-props`) that shape the list screen. */
export interface SearchListOptionProps {
  /** Results stay hidden until a query exists. Default: `config.search.hideResults`. */
  hideResults?: boolean;
  /** Results-hidden flag at start. Default `false`. */
  resultsHidden?: boolean;
  /** Which applied filters get chips. Default: all. */
  chips?: ChipOptions;
}

/**
 * The list screen's options from the page's search configuration and the island's props, the same
 * on the server and in the browser (so hydration starts from identical props). Throws a
 * `SearchConfigurationError` for invalid facet or chip options.
 */
export function searchListOptions(search: SearchConfiguration, props: SearchListOptionProps | undefined) {
  return {
    facets: (Array.isArray(search.facets) ? search.facets : []).map(validateFacetOptions),
    chips: validateChipOptions(props?.chips),
    hideResults: typeof props?.hideResults === 'boolean' ? props.hideResults : search.hideResults === true,
    resultsHidden: props?.resultsHidden === true,
  };
}
