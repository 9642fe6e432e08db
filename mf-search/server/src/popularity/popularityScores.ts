import type { BehaviourEvent } from '../storage/insightsEventRepository.js';
import type { PopularitySettings } from './popularitySettings.js';

/** What scoring needs of the settings. */
export type PopularityScoring = Pick<PopularitySettings, 'weights' | 'halfLifeMs' | 'visitorWindowMs' | 'minVisitors'>;

/** Events older than this many half-lives weigh under 0.1 % and are not read at all. */
export const POPULARITY_HORIZON_HALF_LIVES = 10;

/** The oldest event timestamp that still counts at `now`. */
export function popularityHorizon(scoring: Pick<PopularitySettings, 'halfLifeMs'>, now: number): number {
  return now - POPULARITY_HORIZON_HALF_LIVES * scoring.halfLifeMs;
}

/** One counted event: a visitor's first click (or conversion) on an article in one window. */
interface CountedEvent {
  articleId: string;
  userToken: string;
  weight: number;
  timestamp: number;
}

/**
 * The counted behaviour within the horizon, fed incrementally (each stored event once), scored at
 * any time. Rules:
 * - **per-visitor cap**: one visitor's events of one type on one article within one
 *   `visitorWindowMs` window (fixed windows from the epoch) count once, at the first one added;
 * - **distinct visitors**: an article seen by fewer than `minVisitors` visitors scores 0, so no
 *   single visitor (however many windows they click in) moves a rank on their own;
 * - **decay**: a counted event adds its type's weight × 0.5^(age / `halfLifeMs`); future
 *   timestamps count as now; events past the horizon are dropped.
 * Memory: one entry per counted event within the horizon (a flood of repeats is one entry).
 */
export class PopularityTally {
  private readonly counted = new Map<string, CountedEvent>();

  constructor(private readonly scoring: PopularityScoring) {}

  /** Counts new events (each stored event once, in the order they were stored). */
  add(events: Iterable<BehaviourEvent>, now: number): void {
    const horizon = popularityHorizon(this.scoring, now);
    for (const event of events) {
      if (event.timestamp < horizon) continue;
      const window = Math.floor(event.timestamp / this.scoring.visitorWindowMs);
      for (const articleId of new Set(event.objectIds)) {
        const key = JSON.stringify([event.userToken, articleId, event.eventType, window]);
        if (this.counted.has(key)) continue;
        this.counted.set(key, { articleId, userToken: event.userToken, weight: this.scoring.weights[event.eventType], timestamp: event.timestamp });
      }
    }
  }

  /** How many counted events are held. */
  get size(): number {
    return this.counted.size;
  }

  /**
   * Each article's popularity at `now` (articles scoring 0 left out), rounded to 4 decimals; drops
   * the counted events that fell past the horizon.
   */
  scores(now: number): Map<string, number> {
    const horizon = popularityHorizon(this.scoring, now);
    const sums = new Map<string, number>();
    const visitors = new Map<string, Set<string>>();
    for (const [key, event] of this.counted) {
      if (event.timestamp < horizon) {
        this.counted.delete(key);
        continue;
      }
      const decay = Math.pow(0.5, Math.max(0, now - event.timestamp) / this.scoring.halfLifeMs);
      sums.set(event.articleId, (sums.get(event.articleId) ?? 0) + event.weight * decay);
      let seenBy = visitors.get(event.articleId);
      if (!seenBy) visitors.set(event.articleId, (seenBy = new Set()));
      seenBy.add(event.userToken);
    }
    const result = new Map<string, number>();
    for (const [articleId, score] of sums) {
      const rounded = Math.round(score * 10_000) / 10_000;
      if ((visitors.get(articleId)?.size ?? 0) >= this.scoring.minVisitors && rounded > 0) result.set(articleId, rounded);
    }
    return result;
  }
}

/** Each article's popularity at `now` from clicks and conversions, by {@link PopularityTally}'s rules. */
export function computePopularity(events: Iterable<BehaviourEvent>, scoring: PopularityScoring, now: number): Map<string, number> {
  const tally = new PopularityTally(scoring);
  tally.add(events, now);
  return tally.scores(now);
}
