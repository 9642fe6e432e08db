import path from 'node:path';
import { contentImagesDir, createLiveArticleStore, formatLiveArticleProblem, type LiveArticleStore, listSurveys } from '@khs/content';
import { DEV_ADMIN_KEY } from '@khs/search-engine';
import { searchNodeSettingsFromEnv } from '@khs/search-nodes';
import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import { fileIndexState, type IndexStateStore } from './indexState.js';
import { recordIndexVersion } from './recordIndexVersion.js';
import { type SearchTarget, syncArticleIndex, type SyncResult } from './syncArticleIndex.js';

/** The indexer's settings, from the same environment variables as the shell's. */
export interface IndexerSettings {
  target: SearchTarget;
  /** The article folder (`CONTENT_DIR`, default the checkout's `content/articles`). */
  contentDir: string;
  /** The indexer's record of what it sent: `DATA_DIR/search-indexer/<collection>.json`. */
  stateFile: string;
}

/**
 * Reads the indexer's settings: the search nodes as the shell reads them (`TYPESENSE_NODES` and
 * `TYPESENSE_NEAREST_NODE`, else `TYPESENSE_PROTOCOL`/`TYPESENSE_HOST`/`TYPESENSE_PORT`, default
 * `http://127.0.0.1:8108`; `searchNodeSettingsFromEnv`), `TYPESENSE_API_KEY` (admin),
 * `SEARCH_INDEX_NAME`, `CONTENT_DIR`, `DATA_DIR`.
 * @throws Error when a node list is not a list of http(s) URLs.
 */
export function readIndexerSettings(contentDir: string, env: NodeJS.ProcessEnv = process.env): IndexerSettings {
  const collectionName = env.SEARCH_INDEX_NAME || DEFAULT_SEARCH_INDEX_NAME;
  return {
    target: {
      ...searchNodeSettingsFromEnv(env),
      apiKey: env.TYPESENSE_API_KEY || DEV_ADMIN_KEY,
      collectionName,
    },
    contentDir,
    stateFile: path.resolve(env.DATA_DIR || '.data', 'search-indexer', `${collectionName}.json`),
  };
}

/** A running indexer: the content folder watched, each change synced to the index. */
export interface ContentIndexer {
  /** Resolves when the sync of everything seen so far is done (tests, start). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startContentIndexer}. */
export interface ContentIndexerOptions extends IndexerSettings {
  log: (message: string) => void;
  /** Where the indexer keeps what it sent. Default: a file at `stateFile`. */
  state?: IndexStateStore;
  /** Retry delay after a failed sync (search server unreachable). Default 2000 ms. */
  retryMs?: number;
}

/**
 * The search slice's indexer: watches the content folder (debounced, and the schedule every 30 s) and
 * after each change syncs the public articles to the index incrementally (changed files upserted,
 * removed ones deleted). Syncs never overlap: changes during a sync are picked up right after it.
 */
export function startContentIndexer(options: ContentIndexerOptions): ContentIndexer {
  const state = options.state ?? fileIndexState(options.stateFile);
  const store: LiveArticleStore = createLiveArticleStore({
    dir: options.contentDir,
    surveyHandles: new Set(listSurveys().map((survey) => survey.formHandle)),
    imagesDir: contentImagesDir,
    // The one process that logs content problems (each once, when it appears): every reader of the
    // folder serves alike (the live store), and shells and the watchlist service stay quiet.
    onProblems: (problems) => {
      for (const problem of problems) options.log(formatLiveArticleProblem(problem));
    },
  });
  let running: Promise<void> = Promise.resolve();
  let pending = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** The content version last recorded as the index version (`recordIndexVersion`). */
  let recordedVersion: string | undefined;
  /** Whether a sync has completed: the first one is always logged, even when it changed nothing. */
  let firstSyncDone = false;

  const syncOnce = async (): Promise<void> => {
    const snapshot = store.snapshot();
    const version = store.version();
    const started = Date.now();
    try {
      const result: SyncResult = await syncArticleIndex({ target: options.target, articles: store.publicArticles(), hashes: snapshot.hashesById, state });
      // Only now is the content of `version` in the index: caches keyed on the index version drop older answers.
      if (version !== recordedVersion) {
        await recordIndexVersion(options.target, version);
        recordedVersion = version;
      }
      for (const refusal of result.refused) options.log(`left out of the index: ${refusal.message}`);
      // The first sync's line says the index is ready, also when the index already held every
      // article (a restart on kept data, a cluster seeded before the start): what waits on the
      // line (the e2e harness) would otherwise wait for ever. Later syncs log only what changed.
      if (!firstSyncDone || result.upserted + result.deleted + result.failed > 0 || result.created) {
        firstSyncDone = true;
        options.log(
          `synced "${options.target.collectionName}" in ${Date.now() - started} ms: ${result.upserted} upserted, ${result.deleted} deleted, ${result.unchanged} unchanged, ${result.failed} failed${result.created ? ' (collection created)' : ''}`,
        );
      }
    } catch (error) {
      options.log(`sync failed (retrying in ${options.retryMs ?? 2000} ms): ${(error as Error).message}`);
      clearTimeout(retry);
      if (!closed) retry = setTimeout(request, options.retryMs ?? 2000);
    }
  };
  function request(): void {
    if (closed) return;
    if (pending) return;
    pending = true;
    running = running.then(async () => {
      pending = false;
      if (!closed) await syncOnce();
    });
  }
  store.onChange(request);
  request();
  return {
    idle: async () => {
      let current: Promise<void>;
      do {
        current = running;
        await current;
      } while (current !== running);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      store.close();
      await running;
    },
  };
}
