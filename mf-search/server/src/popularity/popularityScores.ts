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

/**
 * Each article's popularity at `now` from clicks and conversions:
 * - **per-visitor cap**: one visitor's events of one type on one article within one
 *   `visitorWindowMs` window (fixed windows from the epoch) count once, at the first of them;
 * - **distinct visitors**: an article seen by fewer than `minVisitors` visitors scores 0, so no
 *   single visitor (however many windows they click in) moves a rank on their own;
 * - **decay**: a counted event adds its type's weight × 0.5^(age / `halfLifeMs`); future
 *   timestamps count as now.
 * Articles scoring 0 are left out of the map. Rounded to 4 decimals so unchanged scores compare equal.
 */
export function computePopularity(events: Iterable<BehaviourEvent>, scoring: PopularityScoring, now: number): Map<string, number> {
  const horizon = popularityHorizon(scoring, now);
  const counted = new Set<string>();
  const scores = new Map<string, number>();
  const visitors = new Map<string, Set<string>>();
  for (const event of events) {
    if (event.timestamp < horizon) continue;
    const weight = scoring.weights[event.eventType];
    const window = Math.floor(event.timestamp / scoring.visitorWindowMs);
    const decay = Math.pow(0.5, Math.max(0, now - event.timestamp) / scoring.halfLifeMs);
    for (const articleId of new Set(event.objectIds)) {
      const key = JSON.stringify([event.userToken, articleId, event.eventType, window]);
      if (counted.has(key)) continue;
      counted.add(key);
      let seenBy = visitors.get(articleId);
      if (!seenBy) visitors.set(articleId, (seenBy = new Set()));
      seenBy.add(event.userToken);
      scores.set(articleId, (scores.get(articleId) ?? 0) + weight * decay);
    }
  }
  const result = new Map<string, number>();
  for (const [articleId, score] of scores) {
    const rounded = Math.round(score * 10_000) / 10_000;
    if ((visitors.get(articleId)?.size ?? 0) >= scoring.minVisitors && rounded > 0) result.set(articleId, rounded);
  }
  return result;
}
