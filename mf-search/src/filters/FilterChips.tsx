import { useCurrentRefinements } from 'react-instantsearch';
import type { ChipOptions } from '../config/chipOptions.js';

export interface FilterChipsProps extends ChipOptions {
  /** Accessible name of the chip list. Default `Applied filters`. */
  label?: string;
  /** Accessible label prefix of each remove button. Default `Remove filter`. */
  removeLabel?: string;
}

/** A removable chip for every applied filter (the query itself gets none). */
export function FilterChips({ includedAttributes, excludedAttributes = ['query'], label = 'Applied filters', removeLabel = 'Remove filter' }: FilterChipsProps) {
  const { items } = useCurrentRefinements(includedAttributes ? { includedAttributes } : { excludedAttributes });
  const chips = items.flatMap((item) => item.refinements.map((refinement) => ({ item, refinement })));
  if (chips.length === 0) return null;
  return (
    <ul className="khs-search-chips" aria-label={label}>
      {chips.map(({ item, refinement }) => (
        <li key={`${item.attribute}:${String(refinement.value)}`} className="khs-search-chips__chip">
          <span className="khs-search-chips__text">{refinement.label}</span>
          <button
            type="button"
            className="khs-search-chips__remove"
            aria-label={`${removeLabel}: ${refinement.label}`}
            onClick={() => item.refine(refinement)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
