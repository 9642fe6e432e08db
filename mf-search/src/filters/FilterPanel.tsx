import { useId, useState } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import type { ValidFacetOptions } from '../config/facetOptions.js';
import { FacetGroup } from './FacetGroup.js';

export interface FilterPanelProps {
  /** Facets to offer; with none, nothing renders. */
  facets: ValidFacetOptions[];
  /** Whether a query was entered; facets are offered only then. */
  hasQuery: boolean;
  /** Label of the toggle button (`i18n.filter`). */
  label: string;
  /** Panel expanded at start. Default `false` (collapsed). */
  defaultExpanded?: boolean;
}

/**
 * The Filter toggle and its panel of facet checkbox groups. Shown only when facets exist (the
 * answer has facet values) and a query was entered; the panel is collapsed or expanded
 * (`aria-expanded`).
 */
export function FilterPanel({ facets, hasQuery, label, defaultExpanded = false }: FilterPanelProps) {
  const [expanded, setExpanded] = useState(defaultExpanded);
  const panelId = useId();
  const { results } = useInstantSearch();
  if (facets.length === 0) return null;
  // Read from the answer's facet lists, not through `getFacetValues`: that asks the search state
  // whether the facet is registered, which the first render of a hydrated (server) answer does
  // not know yet, so the block would appear one render late and move the results down.
  const facetValuesExist = facets.some((facet) =>
    [...(results?.disjunctiveFacets ?? []), ...(results?.facets ?? [])].some(
      (candidate) => candidate.name === facet.attribute && Object.keys(candidate.data ?? {}).length > 0,
    ),
  );
  // Without a query (or without facet values) the block stays hidden, but mounted: the facet
  // widgets must stay registered so filters restored from the address keep applying.
  return (
    <div className="khs-search-filters" data-expanded={expanded} hidden={!hasQuery || !facetValuesExist}>
      <button
        type="button"
        className="khs-search-filters__toggle"
        aria-expanded={expanded}
        aria-controls={panelId}
        onClick={() => setExpanded((open) => !open)}
      >
        {label}
      </button>
      <div id={panelId} className="khs-search-filters__panel" hidden={!expanded}>
        {facets.map((facet) => (
          <FacetGroup key={facet.attribute} facet={facet} />
        ))}
      </div>
    </div>
  );
}
