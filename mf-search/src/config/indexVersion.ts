/**
 * The index version: what the search slice's indexer last finished writing to the articles
 * collection (the content version of its last completed sync). The Typesense protocol has no
 * version of its own, so the indexer keeps it as one document in a small collection of its own
 * beside the articles, where every reader with the search-only key can read it: the browser's
 * search clients, this remote's server render and, through that render's `dataVersion()`, every
 * shell's page cache. Answers cached under one version are not served once another is read, so a
 * publish, edit, unpublish or delete shows in every search within one read interval of the sync.
 */

/** The collection holding the index version of `indexName` (one document, {@link INDEX_VERSION_DOCUMENT_ID}). */
export function indexVersionCollection(indexName: string): string {
  return `${indexName}_index_version`;
}

/** Id of the one document of the version collection. */
export const INDEX_VERSION_DOCUMENT_ID = 'current';

/** The version field of that document (a string). */
export const INDEX_VERSION_FIELD = 'version';

/**
 * The field of the same document where the search team's service records the hash of its learned
 * re-ranking curations (`server/src/reranking/`): part of the version, so a learned order (or an
 * editor switching it off) reaches cached answers as fast as a publish. The indexer's write of a
 * new version drops it until the next learn, which only costs a refetch.
 */
export const INDEX_VERSION_CURATIONS_FIELD = 'curations';

/**
 * The field of the same document where the search team's service records the hash of the
 * popularity scores it last wrote (`server/src/popularity/`): part of the version, so a refresh
 * that moved the order reaches cached answers within a second instead of at their expiry
 * (`SEARCH_CACHE_SECONDS`). Dropped by the indexer's next version write, as the curations' hash.
 */
export const INDEX_VERSION_POPULARITY_FIELD = 'popularity';

/**
 * How old a version read may be when a search is answered from a cache (ms): a change is in every
 * answer at most this long after the indexer recorded it (the bound is 5 s).
 */
export const INDEX_VERSION_MAX_AGE_MS = 1000;

/** What a reader hands out when the server has no version (an indexer before this, a failed read). */
export const UNKNOWN_INDEX_VERSION = '-';

/** The one search of the version collection, as a `multi_search` entry. */
export function indexVersionSearch(indexName: string): Record<string, unknown> {
  return { collection: indexVersionCollection(indexName), q: '*', query_by: INDEX_VERSION_FIELD, per_page: 1 };
}

/**
 * The version in a `multi_search` result of {@link indexVersionSearch} (with the learned curations'
 * hash after `+` and the popularity scores' hash after `~`, when recorded), or {@link UNKNOWN_INDEX_VERSION}.
 */
export function versionOfResult(result: unknown): string {
  const document = (result as { hits?: { document?: Record<string, unknown> }[] } | undefined)?.hits?.[0]?.document;
  const version = document?.[INDEX_VERSION_FIELD];
  if (typeof version !== 'string' || version === '') return UNKNOWN_INDEX_VERSION;
  const part = (field: string, separator: string) => {
    const value = document?.[field];
    return typeof value === 'string' && value !== '' ? `${separator}${value}` : '';
  };
  return `${version}${part(INDEX_VERSION_CURATIONS_FIELD, '+')}${part(INDEX_VERSION_POPULARITY_FIELD, '~')}`;
}

/** A memoised reader of the index version. */
export interface IndexVersionReader {
  /** The version, read again when the last read is older than `maxAgeMs` (concurrent calls share one read). */
  current(): Promise<string>;
  /** The last version read, without waiting (undefined before the first read). */
  known(): string | undefined;
}

/** Options of {@link createIndexVersionReader}. */
export interface IndexVersionReaderOptions {
  /** Reads the version from the server; a rejection counts as {@link UNKNOWN_INDEX_VERSION}. */
  read: () => Promise<string>;
  /** Default {@link INDEX_VERSION_MAX_AGE_MS}. */
  maxAgeMs?: number;
  /** Clock (tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * A reader that asks the server at most once per `maxAgeMs`. A read is taken as of when it
 * started, so an answer fetched after it reflects at least that version.
 */
export function createIndexVersionReader(options: IndexVersionReaderOptions): IndexVersionReader {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? INDEX_VERSION_MAX_AGE_MS;
  let last: { version: string; at: number } | undefined;
  let reading: Promise<string> | undefined;
  return {
    current() {
      if (last && now() - last.at < maxAgeMs) return Promise.resolve(last.version);
      if (!reading) {
        const at = now();
        reading = options
          .read()
          .catch(() => UNKNOWN_INDEX_VERSION)
          .then((version) => {
            last = { version, at };
            reading = undefined;
            return version;
          });
      }
      return reading;
    },
    known: () => last?.version,
  };
}

/** Options of {@link createVersionedAnswerCache}. */
export interface VersionedAnswerCacheOptions {
  /** How long an answer is reused under the same version (ms). */
  ttlMs: number;
  /** Answers kept at most (oldest dropped first). */
  maxEntries: number;
  now?: () => number;
}

/**
 * Answers keyed by request and index version: an answer is reused for `ttlMs` while the version
 * read before the request is still the current one. The version is read before the request is
 * sent, so an answer stored under a version is never older than that version (a newer answer under
 * an older version only costs a refetch later).
 */
export function createVersionedAnswerCache<Answer>(versions: IndexVersionReader, options: VersionedAnswerCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { at: number; answer: Promise<Answer> }>();
  return async function answer(requestKey: string, fetchAnswer: () => Promise<Answer>): Promise<Answer> {
    const version = await versions.current();
    const key = `${version}\n${requestKey}`;
    const cached = entries.get(key);
    if (cached && now() - cached.at < options.ttlMs) return cached.answer;
    const fetched = fetchAnswer();
    entries.delete(key);
    entries.set(key, { at: now(), answer: fetched });
    // A failed answer is not reused.
    fetched.catch(() => {
      if (entries.get(key)?.answer === fetched) entries.delete(key);
    });
    while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    return fetched;
  };
}
