// Plain JavaScript with its types beside it (index.d.mts), so that every part may import it: the
// TypeScript services and the shell, the search engine's bundled server, and the stack's .mjs files.

/** A whole decimal number, optionally negative: no `1e3`, `0x10`, `12px` or `1.0`. */
const DECIMAL_INTEGER = /^-?\d+$/;

/** An integer environment variable that is set but not a whole number within its range. */
export class EnvIntegerError extends Error {
  /**
   * @param {string} variable
   * @param {string} message
   */
  constructor(variable, message) {
    super(message);
    this.name = 'EnvIntegerError';
    /** The variable's name. */
    this.variable = variable;
  }
}

/**
 * Reads the integer environment variable `name`: `undefined` when it is unset or blank (the caller
 * keeps its default), else a whole number from `min` (default 1) to `max` (default
 * `Number.MAX_SAFE_INTEGER`); anything else throws an `EnvIntegerError` that names the variable,
 * the range (with `unit`, when given) and the value. Surrounding white space is ignored.
 *
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {string} name
 * @param {{ min?: number, max?: number, unit?: string }} [range]
 * @returns {number | undefined}
 */
export function readEnvInteger(env, name, { min = 1, max = Number.MAX_SAFE_INTEGER, unit } = {}) {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = DECIMAL_INTEGER.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const of = unit ? ` of ${unit}` : '';
  const range = min === 1 && max === Number.MAX_SAFE_INTEGER ? `a positive integer${of}` : `an integer${of} from ${min} to ${max}`;
  throw new EnvIntegerError(name, `${name} must be ${range}, got "${raw}"`);
}
