/**
 * Paths of team-service calls the shell makes on the server (not browser calls: those are
 * `DEFAULT_CALL_URLS`). `{name}` placeholders as in the call URLs.
 */
export const SERVICE_PATHS = {
  /** The watchlist service's shared list: `{ teasers, importable }` for the shared-watchlist page (404 unknown). */
  watchlistShare: '/api/watchlist/shares/{shareId}',
} as const;
