/**
 * A client error of the watchlist calls. The shell's error handler turns it into
 * `{ error, code }` with this status.
 */
export class WatchlistRequestError extends Error {
  constructor(
    readonly statusCode: 400 | 413 | 422,
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'WatchlistRequestError';
  }
}
