/** Articles of a shared watchlist: article id -> title. */
export type SharedWatchlistArticles = Record<string, { title: string }>;

/** Watchlists shared by link. */
export interface WatchlistShareRepository {
  /** Stores the list under a new unguessable id (128 random bits, base64url) and returns it; an equal list already stored keeps its id. */
  create(articles: SharedWatchlistArticles): Promise<string>;
  /** The stored list (same entries, same order), or undefined for an unknown or malformed id. */
  get(id: string): Promise<SharedWatchlistArticles | undefined>;
}
