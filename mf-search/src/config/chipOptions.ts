import { SearchConfigurationError } from './SearchConfigurationError.js';

/** Which applied filters the chips show. Give one list at most. */
export interface ChipOptions {
  /** Only these attributes get chips. Default: all. */
  includedAttributes?: string[];
  /** These attributes get no chips. Default: none (the query never gets a chip). */
  excludedAttributes?: string[];
}

/**
 * Checks the chip options (specification point 5: included and excluded attributes cannot both
 * be given) and returns them unchanged.
 * @throws SearchConfigurationError when both lists are given.
 */
export function validateChipOptions(options: ChipOptions = {}): ChipOptions {
  if (options.includedAttributes !== undefined && options.excludedAttributes !== undefined) {
    throw new SearchConfigurationError(
      'conflicting-attribute-lists',
      'Chips take either "includedAttributes" or "excludedAttributes", not both.',
    );
  }
  return options;
}
