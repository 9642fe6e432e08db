import { SearchConfigurationError } from './SearchConfigurationError.js';

/** Logs a search configuration error with its code (never shown to visitors). */
export function logConfigurationError(island: string, error: unknown): void {
  if (error instanceof SearchConfigurationError) {
    console.error(`[${island}] configuration error (${error.code}): ${error.message}; the fallback stays`);
  }
}
