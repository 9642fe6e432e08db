import { useId } from 'react';
import { useRefinementList } from 'react-instantsearch';
import type { ValidFacetOptions } from '../config/facetOptions.js';

export interface FacetGroupProps {
  /** Validated facet options (attribute, label, operator, limit, show-more limit). */
  facet: ValidFacetOptions;
  /** "Show more" label. Default `Show more`. */
  showMoreLabel?: string;
  /** "Show less" label. Default `Show less`. */
  showLessLabel?: string;
}

/** One facet as a group of checkboxes with counts; "show more" lifts the limit. */
export function FacetGroup({ facet, showMoreLabel = 'Show more', showLessLabel = 'Show less' }: FacetGroupProps) {
  const legendId = useId();
  const { items, refine, canToggleShowMore, isShowingMore, toggleShowMore } = useRefinementList({
    attribute: facet.attribute,
    operator: facet.operator,
    limit: facet.limit,
    showMore: true,
    showMoreLimit: facet.showMoreLimit,
  });
  if (items.length === 0) return null;
  return (
    <fieldset className="khs-search-facet" aria-labelledby={legendId} data-attribute={facet.attribute}>
      <legend id={legendId} className="khs-search-facet__legend">
        {facet.label}
      </legend>
      <ul className="khs-search-facet__options">
        {items.map((item) => (
          <li key={item.value}>
            <label className="khs-search-facet__option">
              <input type="checkbox" checked={item.isRefined} onChange={() => refine(item.value)} />
              <span className="khs-search-facet__label">{item.label}</span>{' '}
              <span className="khs-search-facet__count">({item.count})</span>
            </label>
          </li>
        ))}
      </ul>
      {canToggleShowMore ? (
        <button type="button" className="khs-search-facet__more" onClick={toggleShowMore}>
          {isShowingMore ? showLessLabel : showMoreLabel}
        </button>
      ) : null}
    </fieldset>
  );
}
