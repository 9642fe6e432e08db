/** An integer environment variable that is set but not a whole number within its range. */
export declare class EnvIntegerError extends Error {
  constructor(variable: string, message: string);
  /** The variable's name. */
  readonly variable: string;
}

/** The range a variable must fall in, and the unit its error message names. */
export interface EnvIntegerRange {
  /** Smallest allowed value. Default 1. */
  min?: number;
  /** Largest allowed value. Default `Number.MAX_SAFE_INTEGER`. */
  max?: number;
  /** What the number counts, for the error message (`milliseconds`). Default none. */
  unit?: string;
}

/**
 * Reads the integer environment variable `name`: `undefined` when it is unset or blank (the caller
 * keeps its default), else a whole number within `range`; anything else throws an
 * `EnvIntegerError` naming the variable, the range and the value.
 */
export declare function readEnvInteger(env: Readonly<Record<string, string | undefined>>, name: string, range?: EnvIntegerRange): number | undefined;
