import type { QueryPick, RerankRepository } from '../storage/rerankRepository.js';

/** Positions a learned result can be pinned to: the top 3 of the query. */
export const RERANK_POSITIONS = 3;
/** Only results among the query's first this many by text match take part: nothing from beyond moves in. */
export const RERANK_CANDIDATES = 20;
/** Picks older than this (ms) are not read: 30 days. */
export const RERANK_WINDOW_MS = 30 * 24 * 3_600_000;

/** A result lifted for a query: where it goes, where text match put it, and how many distinct visitors picked it. */
export interface LearnedPin {
  id: string;
  /** 1-based position it is pinned to (at most {@link RERANK_POSITIONS}). */
  position: number;
  /** 1-based position among the query's results by text match (at most {@link RERANK_CANDIDATES}). */
  from: number;
  /** Distinct visitors who clicked or saved it after searching the query. */
  visitors: number;
}

/** The learned order of one query's top results. */
export interface LearnedReranking {
  /** The normalised query (as the site-search records store it). */
  query: string;
  /** In position order. */
  pins: LearnedPin[];
  /** Distinct visitors who picked any result of the query. */
  visitors: number;
}

/** Query → article → the distinct visitors who picked it after searching the query. */
export type PickTally = Map<string, Map<string, Set<string>>>;

/** Counts distinct visitors per query and article: one visitor's many clicks on one result count once. */
export function tallyPicks(picks: Iterable<QueryPick>): PickTally {
  const tally: PickTally = new Map();
  for (const pick of picks) {
    let articles = tally.get(pick.query);
    if (!articles) tally.set(pick.query, (articles = new Map()));
    for (const id of new Set(pick.articleIds)) {
      let visitors = articles.get(id);
      if (!visitors) articles.set(id, (visitors = new Set()));
      visitors.add(pick.userToken);
    }
  }
  return tally;
}

/** Whether any result of the query was picked by `minVisitors` distinct visitors (only those queries are searched). */
export function mayRerank(pickedBy: Map<string, Set<string>>, minVisitors: number): boolean {
  for (const visitors of pickedBy.values()) if (visitors.size >= minVisitors) return true;
  return false;
}

/**
 * The learned order of one query, or undefined when it would change nothing. The results that take
 * part are the query's first {@link RERANK_CANDIDATES} by text match (`organic`, in order) that at
 * least `minVisitors` distinct visitors picked; the most picked (ties: the better text match first)
 * take positions 1 to {@link RERANK_POSITIONS}. So a lifted result was picked by more distinct visitors
 * than every result it passes (those have fewer than `minVisitors`, or fewer than it), a result picked
 * beyond the first 20 never moves in, and one visitor moves nothing.
 */
export function learnReranking(query: string, organic: readonly string[], pickedBy: Map<string, Set<string>>, minVisitors: number): LearnedReranking | undefined {
  const candidates = organic
    .slice(0, RERANK_CANDIDATES)
    .map((id, index) => ({ id, from: index + 1, visitors: pickedBy.get(id)?.size ?? 0 }))
    .filter((candidate) => candidate.visitors >= minVisitors)
    .sort((a, b) => b.visitors - a.visitors || a.from - b.from);
  const pins = candidates.slice(0, RERANK_POSITIONS).map((candidate, index) => ({ ...candidate, position: index + 1 }));
  if (pins.every((pin) => pin.from === pin.position)) return undefined;
  const everyone = new Set<string>();
  for (const visitors of pickedBy.values()) for (const visitor of visitors) everyone.add(visitor);
  return { query, pins, visitors: everyone.size };
}

/** What one learn found and applied. */
export interface RerankOutcome {
  /** When it learned (ms). */
  at: number;
  /** The re-rankings written to the search server, by query. */
  applied: LearnedReranking[];
  /** Re-rankings learned for queries editors switched off: not written. */
  switchedOff: LearnedReranking[];
  /** Distinct (query, visitor, event) picks read. */
  picksRead: number;
  /** Queries searched for their results by text match (those with a result picked by enough visitors). */
  queriesSearched: number;
}

/** Options of {@link createRerankLearner}. */
export interface RerankLearnerOptions {
  /** The articles collection: the `index` the insights events name. */
  index: string;
  store: Pick<RerankRepository, 'picks' | 'switchedOff'>;
  /** The query's results by text match (the site's ranking, without curations), ids in order: the first {@link RERANK_CANDIDATES} suffice. */
  organicResults(query: string): Promise<string[]>;
  /** Writes the learned re-rankings (all of them: the set replaces the last one). */
  apply(learned: LearnedReranking[]): Promise<void>;
  /** Distinct visitors a result needs before it moves (the popularity setting `SEARCH_POPULARITY_MIN_VISITORS`). */
  minVisitors: number;
  /** Picks older than this are not read. Default {@link RERANK_WINDOW_MS}. */
  windowMs?: number;
  /** Default `Date.now`. */
  now?: () => number;
}

/** A learner: each {@link RerankLearner.learn} reads the picks, learns every query's order and applies it. */
export interface RerankLearner {
  learn(): Promise<RerankOutcome>;
  /** The outcome of the last completed learn (undefined before the first). */
  last(): RerankOutcome | undefined;
}

/** See {@link RerankLearner}. */
export function createRerankLearner(options: RerankLearnerOptions): RerankLearner {
  const now = options.now ?? Date.now;
  let last: RerankOutcome | undefined;
  return {
    async learn() {
      const at = now();
      const picks = await options.store.picks(options.index, at - (options.windowMs ?? RERANK_WINDOW_MS));
      const off = await options.store.switchedOff();
      const applied: LearnedReranking[] = [];
      const switchedOff: LearnedReranking[] = [];
      let queriesSearched = 0;
      const tally = [...tallyPicks(picks)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [query, pickedBy] of tally) {
        if (!mayRerank(pickedBy, options.minVisitors)) continue;
        queriesSearched++;
        const learned = learnReranking(query, await options.organicResults(query), pickedBy, options.minVisitors);
        if (learned) (off.has(query) ? switchedOff : applied).push(learned);
      }
      await options.apply(applied);
      last = { at, applied, switchedOff, picksRead: picks.length, queriesSearched };
      return last;
    },
    last: () => last,
  };
}

/** A learner running every `refreshMs`. */
export interface RunningRerankLearner {
  /** The last completed outcome. */
  last(): RerankOutcome | undefined;
  /** Learns again as soon as the learn under way (if any) is done: an editor's switch takes effect at once. */
  learnSoon(): Promise<void>;
  /** Resolves when the learn under way is done. */
  idle(): Promise<void>;
  /** Stops the timer and waits for a learn under way. */
  close(): Promise<void>;
}

/** Learns now and every `refreshMs` (never two at once); a failed learn is logged and the next one tries again. */
export function startRerankLearner(options: RerankLearnerOptions & { refreshMs: number; log: (message: string) => void }): RunningRerankLearner {
  const learner = createRerankLearner(options);
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  let closed = false;
  const learnOnce = async () => {
    try {
      const outcome = await learner.learn();
      if (outcome.applied.length > 0 || outcome.switchedOff.length > 0) {
        options.log(`re-ranked ${outcome.applied.length} queries (${outcome.switchedOff.length} switched off by editors) from ${outcome.picksRead} picks`);
      }
    } catch (error) {
      options.log(`re-ranking learn failed (next in ${options.refreshMs} ms): ${(error as Error).message}`);
    }
  };
  // One learn waiting behind the running one at most: asking again meanwhile joins it.
  const schedule = (): Promise<void> => {
    if (closed) return running;
    if (!queued) {
      queued = running.then(() => {
        queued = undefined;
        return closed ? undefined : learnOnce();
      });
      running = queued;
    }
    return queued;
  };
  void schedule();
  const timer = setInterval(() => void schedule(), options.refreshMs);
  timer.unref();
  return {
    last: () => learner.last(),
    learnSoon: schedule,
    idle: () => running,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
