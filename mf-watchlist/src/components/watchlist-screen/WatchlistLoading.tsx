export interface WatchlistLoadingProps {
  /** Announced text, e.g. "Loading…". */
  label: string;
}

/** Loading indicator; a status region so screen readers announce it. */
export function WatchlistLoading({ label }: WatchlistLoadingProps) {
  return (
    <p className="khs-watchlist-screen__loading" role="status">
      <span className="khs-watchlist-screen__spinner" aria-hidden="true" />
      <span>{label}</span>
    </p>
  );
}
