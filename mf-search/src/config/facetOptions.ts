import { FACET_LIMIT, FACET_SHOW_MORE_LIMIT, type FacetDefinition } from 'contracts';
import { SearchConfigurationError } from './SearchConfigurationError.js';

/** How values of one facet combine: `or` = any selected value, `and` = all of them. */
export type FacetOperator = 'and' | 'or';

/** A facet checkbox group as configured (untrusted page config may add the optional keys). */
export interface FacetOptions extends FacetDefinition {
  /** How selected values combine. Default `or`. */
  operator?: FacetOperator;
  /** Options shown before "show more". Default `FACET_LIMIT` (10). */
  limit?: number;
  /** Options shown after "show more"; must exceed `limit`. Default `FACET_SHOW_MORE_LIMIT` (20). */
  showMoreLimit?: number;
}

/** A facet with every default applied and every rule checked. */
export interface ValidFacetOptions {
  attribute: string;
  label: string;
  operator: FacetOperator;
  limit: number;
  showMoreLimit: number;
}

/**
 * Checks one facet definition against the rules of specification point 5 and applies defaults.
 * @throws SearchConfigurationError missing attribute, operator other than and/or, show-more
 *   limit not above limit.
 */
export function validateFacetOptions(options: Partial<FacetOptions> | null | undefined): ValidFacetOptions {
  const attribute = options?.attribute;
  if (typeof attribute !== 'string' || attribute.trim() === '') {
    throw new SearchConfigurationError('missing-facet-attribute', 'A facet needs the "attribute" option.');
  }
  const operator = options?.operator ?? 'or';
  if (operator !== 'and' && operator !== 'or') {
    throw new SearchConfigurationError(
      'invalid-facet-operator',
      `Facet "${attribute}": operator must be "and" or "or", got ${JSON.stringify(operator)}.`,
    );
  }
  const limit = options?.limit ?? FACET_LIMIT;
  const showMoreLimit = options?.showMoreLimit ?? FACET_SHOW_MORE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(showMoreLimit) || showMoreLimit <= limit) {
    throw new SearchConfigurationError(
      'invalid-show-more-limit',
      `Facet "${attribute}": the show-more limit (${showMoreLimit}) must be an integer above the limit (${limit}).`,
    );
  }
  return { attribute, label: typeof options?.label === 'string' ? options.label : attribute, operator, limit, showMoreLimit };
}
