/**
 * Local-storage key names. The specification keeps one key for the watchlist and one for
 * submitted surveys; the names are a contract because several remotes read them.
 */
export const WATCHLIST_STORAGE_KEY = 'khs:watchlist';
export const SUBMITTED_SURVEYS_STORAGE_KEY = 'khs:submitted-surveys';
