import { describe, expect, it } from 'vitest';
import type { BehaviourEvent } from '../storage/insightsEventRepository.js';
import { computePopularity, type PopularityScoring } from './popularityScores.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 26, 12);
const scoring: PopularityScoring = { weights: { click: 1, conversion: 5 }, halfLifeMs: 7 * DAY, visitorWindowMs: DAY, minVisitors: 3 };

const click = (userToken: string, articleId: string, timestamp = NOW): BehaviourEvent => ({ eventType: 'click', userToken, objectIds: [articleId], timestamp });
const conversion = (userToken: string, articleId: string, timestamp = NOW): BehaviourEvent => ({ eventType: 'conversion', userToken, objectIds: [articleId], timestamp });
const visitors = (count: number, prefix = 'v') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('computePopularity', () => {
  it('adds the weights of clicks and conversions of distinct visitors', () => {
    const events = visitors(4).flatMap((visitor) => [click(visitor, 'a'), conversion(visitor, 'a')]);
    expect(computePopularity(events, scoring, NOW)).toEqual(new Map([['a', 4 * (1 + 5)]]));
  });

  it('counts one visitor\'s 1,000 clicks on one article within the window once, and gives one visitor alone nothing', () => {
    const flood = Array.from({ length: 1000 }, (_, i) => click('flooder', 'b', NOW - i * 1000));
    expect(computePopularity(flood, scoring, NOW).has('b')).toBe(false);
    const withOthers = [...flood, click('v1', 'b'), click('v2', 'b')];
    // Three distinct visitors, each counted once: the flood adds as much as one click.
    expect(computePopularity(withOthers, scoring, NOW).get('b')).toBeCloseTo(3, 2);
  });

  it('counts a visitor again in the next window, but never lets one visitor reach the distinct-visitor minimum', () => {
    const everyDay = Array.from({ length: 10 }, (_, day) => click('daily', 'c', NOW - day * DAY - HOUR));
    expect(computePopularity(everyDay, scoring, NOW).has('c')).toBe(false);
    const scores = computePopularity([...everyDay, click('v1', 'c'), click('v2', 'c')], scoring, NOW);
    expect(scores.get('c')).toBeGreaterThan(3);
  });

  it('decays: the same events weigh half after one half-life, a quarter after two (injected clock)', () => {
    const events = visitors(3).map((visitor) => click(visitor, 'd', NOW));
    const fresh = computePopularity(events, scoring, NOW).get('d')!;
    expect(fresh).toBe(3);
    expect(computePopularity(events, scoring, NOW + 7 * DAY).get('d')).toBeCloseTo(fresh / 2, 4);
    expect(computePopularity(events, scoring, NOW + 14 * DAY).get('d')).toBeCloseTo(fresh / 4, 4);
  });

  it('ranks recent behaviour above as much older behaviour', () => {
    const old = visitors(5, 'old').map((visitor) => conversion(visitor, 'old-favourite', NOW - 30 * DAY));
    const recent = visitors(5, 'new').map((visitor) => conversion(visitor, 'new-favourite', NOW - HOUR));
    const scores = computePopularity([...old, ...recent], scoring, NOW);
    expect(scores.get('new-favourite')!).toBeGreaterThan(4 * scores.get('old-favourite')!);
  });

  it('ignores events beyond the horizon of 10 half-lives', () => {
    const ancient = visitors(3).map((visitor) => conversion(visitor, 'e', NOW - 71 * DAY));
    expect(computePopularity(ancient, scoring, NOW).size).toBe(0);
  });
});
