/** Articles of a shared watchlist: article id -> title. */
export type SharedWatchlistArticles = Record<string, { title: string }>;

/** Who asked for a share, as keys derived from their address and (when the edge named one) their visitor id: never the raw values. */
export interface ShareCreator {
  addressKey: string;
  visitorKey?: string | undefined;
}

/** How many new share rows one creator may add: at most `perAddress` / `perVisitor` created since `since`. */
export interface ShareBound {
  creator: ShareCreator;
  since: Date;
  perAddress: number;
  perVisitor: number;
}

/** Watchlists shared by link. */
export interface WatchlistShareRepository {
  /**
   * Stores the list under a new unguessable id (128 random bits, base64url) and returns it; an equal
   * list already stored keeps its id. With a `bound`, a new row is only added while its creator is
   * under it: else undefined (an equal list already stored still gives its id).
   */
  create(articles: SharedWatchlistArticles, bound?: ShareBound): Promise<string | undefined>;
  /** The stored list (same entries, same order), or undefined for an unknown or malformed id. */
  get(id: string): Promise<SharedWatchlistArticles | undefined>;
}
