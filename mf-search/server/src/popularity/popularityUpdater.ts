import { createHash } from 'node:crypto';
import { INDEX_VERSION_POPULARITY_FIELD } from '../../../src/config/indexVersion.js';
import { POPULARITY_FIELD } from '../indexing/articleCollectionSchema.js';
import { recordIndexVersionPart } from '../indexing/recordIndexVersion.js';
import { searchTargetClient, type SearchTarget } from '../indexing/syncArticleIndex.js';
import type { InsightsEventRepository } from '../storage/insightsEventRepository.js';
import { popularityHorizon, PopularityTally } from './popularityScores.js';
import type { PopularitySettings } from './popularitySettings.js';

/** What one refresh did. */
export interface PopularityRefresh {
  /** Clicks and conversions read (within the horizon; after the first refresh only the newly stored ones). */
  eventsRead: number;
  /** Articles whose `popularity` was written (scores that moved, and 0 for those that fell out). */
  written: number;
  /** Writes the server refused (an article deleted since its events, usually). */
  refused: number;
  /** True when the collection had no `popularity` field and it was added. */
  fieldAdded: boolean;
}

/** Options of {@link createPopularityUpdater}. */
export interface PopularityUpdaterOptions {
  /** The articles collection; its name is also the `index` the insights events name. */
  target: SearchTarget;
  events: Pick<InsightsEventRepository, 'behaviourSince'>;
  settings: Pick<PopularitySettings, 'weights' | 'halfLifeMs' | 'visitorWindowMs' | 'minVisitors'>;
  /** The clock scores decay by. Default `Date.now`. */
  now?: () => number;
}

/**
 * A score is written again only when it moved by more than this fraction of the value last written
 * (or to or from 0). Decay scales every score by the same factor, so the order between articles
 * stays right to within this fraction without rewriting every article at every refresh.
 */
export const POPULARITY_WRITE_THRESHOLD = 0.01;

/** Events per read of the store. */
export const READ_PAGE_SIZE = 10_000;

/** Ids per page when reading which articles have a popularity (Typesense's highest `per_page`). */
const PAGE_SIZE = 250;

/**
 * Recomputes every article's popularity from the stored clicks and conversions and writes it to
 * the articles collection with a partial update (`import?action=update` of `{ id, popularity }`).
 * The first refresh reads the events within the horizon; later ones read only the rows stored since
 * (by row id) into the same {@link PopularityTally}, which forgets what falls past the horizon.
 *
 * Why not Typesense's analytics `counter` rule: a counter only adds weighted increments to the
 * field, so old behaviour could never fade and a visitor's events could not be capped once sent;
 * the decayed value written whole works the same against a real Typesense (30 or older).
 * A refresh writes the scores that moved by more than {@link POPULARITY_WRITE_THRESHOLD} and 0 for
 * articles that had one and fell out. Which articles have a popularity, it asks the collection each
 * time (`filter_by=popularity:>0`, ids only): the indexer's upsert of an edited article resets its
 * `popularity` to 0, and such an article is written again at the next refresh. A refresh that wrote
 * records the hash of the scores in the index version (`INDEX_VERSION_POPULARITY_FIELD`), so cached
 * search answers (browsers, the server render, the shell's page cache) follow within a second.
 */
export interface PopularityUpdater {
  refresh(): Promise<PopularityRefresh>;
}

/** A short hash of the scores in the index (id order), the popularity part of the index version. */
function scoresHash(scores: ReadonlyMap<string, number>): string {
  const entries = [...scores].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 12);
}

/** See above. */
export function createPopularityUpdater(options: PopularityUpdaterOptions): PopularityUpdater {
  const now = options.now ?? Date.now;
  const client = searchTargetClient(options.target);
  const collectionPath = `/collections/${encodeURIComponent(options.target.collectionName)}`;
  /** Article id → popularity this updater last wrote (> 0). */
  let written = new Map<string, number>();
  const tally = new PopularityTally(options.settings);
  let lastId = 0;
  let fieldChecked = false;

  /** Adds the field to a collection made before it existed; true when added. */
  async function ensureField(): Promise<boolean> {
    if (fieldChecked) return false;
    const info = (await client.apiCall.get(collectionPath, {})) as { fields?: { name: string }[] };
    fieldChecked = true;
    if (info.fields?.some((field) => field.name === POPULARITY_FIELD.name)) return false;
    await client.apiCall.patch(collectionPath, { fields: [POPULARITY_FIELD] });
    return true;
  }

  async function popularInIndex(): Promise<Set<string>> {
    const ids = new Set<string>();
    for (let page = 1; ; page++) {
      const answer = (await client.apiCall.get(`${collectionPath}/documents/search`, {
        q: '*',
        filter_by: `${POPULARITY_FIELD.name}:>0`,
        include_fields: 'id',
        per_page: PAGE_SIZE,
        page,
      })) as { found: number; hits?: { document: { id: string } }[] };
      for (const hit of answer.hits ?? []) ids.add(hit.document.id);
      if ((answer.hits?.length ?? 0) < PAGE_SIZE || ids.size >= answer.found) return ids;
    }
  }

  return {
    async refresh() {
      const at = now();
      const fieldAdded = await ensureField();
      // In pages, yielding between them: SQLite reads block the service while they run.
      let eventsRead = 0;
      for (;;) {
        const page = await options.events.behaviourSince(options.target.collectionName, popularityHorizon(options.settings, at), lastId, READ_PAGE_SIZE);
        tally.add(page, at);
        eventsRead += page.length;
        for (const event of page) if (event.id !== undefined && event.id > lastId) lastId = event.id;
        if (page.length < READ_PAGE_SIZE) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const scores = tally.scores(at);
      // What the index holds: a value not written by this updater (another process, a restart) is NaN, so rewritten.
      const previous = new Map([...(await popularInIndex())].map((id) => [id, written.get(id) ?? Number.NaN]));
      const documents: { id: string; popularity: number }[] = [];
      for (const [id, popularity] of scores) {
        const before = previous.get(id);
        if (before === undefined || !(Math.abs(popularity - before) <= before * POPULARITY_WRITE_THRESHOLD)) documents.push({ id, popularity });
      }
      for (const id of previous.keys()) if (!scores.has(id)) documents.push({ id, popularity: 0 });
      let refused = 0;
      if (documents.length > 0) {
        let results: { success: boolean }[];
        try {
          results = await client.collections(options.target.collectionName).documents().import(documents, { action: 'update' });
        } catch (error) {
          const partial = (error as { importResults?: { success: boolean }[] }).importResults;
          if (!partial) throw error;
          results = partial;
        }
        refused = results.filter((result) => !result.success).length;
      }
      const next = new Map(previous);
      for (const document of documents) {
        if (document.popularity > 0) next.set(document.id, document.popularity);
        else next.delete(document.id);
      }
      written = next;
      // Cached answers (SEARCH_CACHE_SECONDS) are keyed on the index version: without this a moved
      // order would show only once they expire.
      if (documents.length > refused) await recordIndexVersionPart(options.target, INDEX_VERSION_POPULARITY_FIELD, scoresHash(next));
      return { eventsRead, written: documents.length - refused, refused, fieldAdded };
    },
  };
}

/** A running updater. */
export interface RunningPopularityUpdater {
  /** Resolves when the refresh under way (the first one, right after the start) is done. */
  idle(): Promise<void>;
  /** Stops the timer and waits for a refresh under way. */
  close(): Promise<void>;
}

/**
 * Refreshes popularity now and then every `refreshMs` (never two at once); a failed refresh (search
 * server unreachable) is logged and the next one tries again.
 */
export function startPopularityUpdater(
  options: PopularityUpdaterOptions & { refreshMs: number; log: (message: string) => void },
): RunningPopularityUpdater {
  const updater = createPopularityUpdater(options);
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  const refreshOnce = async () => {
    try {
      const result = await updater.refresh();
      if (result.fieldAdded) options.log(`added the "popularity" field to "${options.target.collectionName}"`);
      if (result.refused > 0) options.log(`popularity: ${result.refused} of ${result.written + result.refused} writes refused (articles gone?)`);
    } catch (error) {
      options.log(`popularity refresh failed (next in ${options.refreshMs} ms): ${(error as Error).message}`);
    }
  };
  let busy = false;
  const tick = () => {
    // A refresh slower than the interval is not queued again behind itself.
    if (closed || busy) return;
    busy = true;
    running = running.then(refreshOnce).finally(() => {
      busy = false;
    });
  };
  tick();
  const timer = setInterval(tick, options.refreshMs);
  timer.unref();
  return {
    idle: () => running,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
