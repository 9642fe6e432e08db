/**
 * What the watchlist screen needs from the browser. Passed in so tests (and the standalone
 * page) can swap any of them; `browserWatchlistServices()` gives the real ones.
 */
export interface WatchlistServices {
  fetch: typeof fetch;
  /** Hands a file to the visitor as a download. */
  saveFile(blob: Blob, fileName: string): void;
  /** Writes text to the clipboard; rejects when the browser refuses. */
  writeClipboard(text: string): Promise<void>;
  /** Where failures are logged (spec: load, download and copy failures are logged). */
  logger: Pick<Console, 'error'>;
}
