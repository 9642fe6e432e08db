import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import type { Article } from '../article.js';
import { type ArticleFileEntry, ArticleFolderReader, type ArticleFolderOptions, type ArticleFolderSnapshot, assembleArticleFolder, isPublicArticle } from './article-folder.js';
import type { ArticleProblem } from './parse-article-file.js';

/** Settings of {@link createLiveArticleStore}. */
export interface LiveArticleStoreOptions extends ArticleFolderOptions {
  /** Absolute path of the article folder. */
  dir: string;
  /** Quiet time after the last file event before the folder is read again. Default 150 ms. */
  debounceMs?: number;
  /** How often scheduled articles are checked for being due. Default 30 000 ms (the issue asks for ≤ 1 min). */
  scheduleCheckMs?: number;
  /** Watch the folder (default true); false reads it once (a command, a test). */
  watch?: boolean;
  /** The clock (unix ms). Default `Date.now`. */
  now?: () => number;
  /**
   * Told about the problems a read found that the read before did not (a problem still there is not
   * told again; one fixed and made again is). One process of a site passes it, so each problem is
   * logged once (see the README).
   */
  onProblems?: (problems: ArticleProblem[]) => void;
}

/** Articles read from a folder that follows the folder's changes. */
export interface LiveArticleStore {
  /** Public articles (not drafts, date come), newest first. Fresh array. */
  publicArticles(): Article[];
  /** A public article by id, or undefined (drafts and scheduled ones are undefined here). */
  getPublicArticle(id: string): Article | undefined;
  /** Any valid article by id, drafts and scheduled ones included (for signed previews only). */
  getArticle(id: string): Article | undefined;
  /** The last read: every valid article, hashes and problems. */
  snapshot(): ArticleFolderSnapshot;
  /** Changes whenever what visitors see changes: a file saved, added or removed, or a scheduled article come due. */
  version(): string;
  /** Calls `listener` after each change of {@link version}; returns the unsubscribe function. */
  onChange(listener: (version: string) => void): () => void;
  /** Reads the folder now (the watcher does this by itself). */
  refresh(): void;
  /** Stops watching. */
  close(): void;
}

/**
 * Reads an article folder and, unless `watch: false`, watches it (recursively, debounced) and checks
 * the schedule every `scheduleCheckMs`, so a saved file reaches the store in well under a second and a
 * scheduled article within a minute of its date, without a restart. Where the platform cannot watch,
 * it polls every second instead. One bad file is reported and left out; the others are served.
 *
 * Nothing an editor saves takes a served article down: a file that was valid and is broken by an
 * edit keeps its last good version live (its problems say so, `keptLastGood`) until it is fixed or
 * removed, and a file that claims an id another file holds is refused while the holder stays
 * ({@link assembleArticleFolder}). Both live in the store, so every reader of the folder (shell,
 * search indexer, watchlist service) serves the same articles. The memory is the process's own: a
 * store started while the file is broken has no good version of it and leaves the article out.
 */
export function createLiveArticleStore(options: LiveArticleStoreOptions): LiveArticleStore {
  const now = options.now ?? Date.now;
  const reader = new ArticleFolderReader(options.dir, options);
  const listeners = new Set<(version: string) => void>();
  /** The last valid read of each file, by its path: served while an edit breaks the file. */
  const lastGood = new Map<string, ArticleFileEntry>();
  let snapshot: ArticleFolderSnapshot | undefined;
  let publicList: Article[] = [];
  let publicById = new Map<string, Article>();
  let currentVersion = '';
  let toldProblems = new Set<string>();

  const readWithLastGood = (): ArticleFolderSnapshot => {
    const read = reader.readFiles();
    if (read.folderProblem) return assembleArticleFolder(read);
    const present = new Set(read.files.map((entry) => entry.file));
    for (const file of lastGood.keys()) if (!present.has(file)) lastGood.delete(file);
    const files = read.files.map((entry): ArticleFileEntry => {
      if (entry.article) {
        lastGood.set(entry.file, entry);
        return entry;
      }
      const kept = lastGood.get(entry.file);
      if (!kept) return entry;
      return { ...kept, problems: entry.problems.map((problem) => ({ ...problem, keptLastGood: true })) };
    });
    return assembleArticleFolder({ files }, snapshot?.filesById);
  };

  const refresh = (): void => {
    const next = readWithLastGood();
    snapshot = next;
    const at = now();
    publicList = next.articles.filter((article) => isPublicArticle(article, at));
    publicById = new Map(publicList.map((article) => [article.id, article]));
    const hash = createHash('sha256');
    for (const article of publicList) hash.update(`${article.id}:${next.hashesById.get(article.id)}\n`);
    const version = hash.digest('base64url').slice(0, 16);
    const problemKeys = next.problems.map((problem) => JSON.stringify(problem));
    const fresh = next.problems.filter((_, index) => !toldProblems.has(problemKeys[index]!));
    toldProblems = new Set(problemKeys);
    if (fresh.length > 0) options.onProblems?.(fresh);
    if (version === currentVersion) return;
    const first = currentVersion === '';
    currentVersion = version;
    if (!first) for (const listener of listeners) listener(version);
  };
  refresh();

  const timers: NodeJS.Timeout[] = [];
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  if (options.watch !== false) {
    const schedule = (): void => {
      clearTimeout(debounce);
      debounce = setTimeout(refresh, options.debounceMs ?? 150);
    };
    const poll = (): void => {
      timers.push(setInterval(refresh, 1000).unref());
    };
    try {
      watcher = watch(options.dir, { recursive: true }, schedule);
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
        poll();
      });
      watcher.unref();
    } catch {
      poll();
    }
    timers.push(setInterval(refresh, options.scheduleCheckMs ?? 30_000).unref());
  }

  return {
    publicArticles: () => publicList.slice(),
    getPublicArticle: (id) => publicById.get(id),
    getArticle: (id) => snapshot!.articlesById.get(id),
    snapshot: () => snapshot!,
    version: () => currentVersion,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    close() {
      clearTimeout(debounce);
      for (const timer of timers) clearInterval(timer);
      watcher?.close();
      listeners.clear();
    },
  };
}
