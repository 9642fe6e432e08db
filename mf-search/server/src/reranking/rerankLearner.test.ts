import { describe, expect, it } from 'vitest';
import type { QueryPick } from '../storage/rerankRepository.js';
import { createRerankLearner, learnReranking, RERANK_WINDOW_MS, startRerankLearner, tallyPicks, type LearnedReranking } from './rerankLearner.js';

/** The query's results by text match: r1 … r30. */
const ORGANIC = Array.from({ length: 30 }, (_, i) => `r${i + 1}`);

/** `count` distinct visitors (`prefix-0` …) each picking `article` after searching `query`. */
const visitorsPick = (query: string, article: string, count: number, prefix = article): QueryPick[] =>
  Array.from({ length: count }, (_, i) => ({ query, userToken: `${prefix}-${i}`, articleIds: [article] }));

const pickedBy = (picks: QueryPick[], query = 'team') => tallyPicks(picks).get(query) ?? new Map<string, Set<string>>();

describe('learnReranking (one query)', () => {
  it('lifts the result most distinct visitors picked into the top 3, the rest keep their text order', () => {
    const learned = learnReranking('team', ORGANIC, pickedBy(visitorsPick('team', 'r8', 5)), 3);
    expect(learned).toEqual({ query: 'team', pins: [{ id: 'r8', position: 1, from: 8, visitors: 5 }], visitors: 5 });
  });

  it('orders several lifted results by distinct visitors, ties by the better text match', () => {
    const picks = [...visitorsPick('team', 'r12', 4), ...visitorsPick('team', 'r6', 9), ...visitorsPick('team', 'r9', 4), ...visitorsPick('team', 'r15', 4)];
    const learned = learnReranking('team', ORGANIC, pickedBy(picks), 3)!;
    expect(learned.pins.map((pin) => [pin.id, pin.position])).toEqual([['r6', 1], ['r9', 2], ['r12', 3]]);
    expect(learned.visitors).toBe(21);
  });

  it('never moves in a result from beyond the first 20, however many visitors pick it', () => {
    const picks = [...visitorsPick('team', 'r21', 50), ...visitorsPick('team', 'r25', 10)];
    expect(learnReranking('team', ORGANIC, pickedBy(picks), 3)).toBeUndefined();
    // Within the first 20, it moves (20 is the last that takes part).
    expect(learnReranking('team', ORGANIC, pickedBy(visitorsPick('team', 'r20', 3)), 3)?.pins[0]).toMatchObject({ id: 'r20', from: 20, position: 1 });
  });

  it("one visitor's clicks move nothing: distinct visitors count, not clicks", () => {
    const flood = Array.from({ length: 1000 }, () => ({ query: 'team', userToken: 'flooder', articleIds: ['r9'] }));
    expect(learnReranking('team', ORGANIC, pickedBy(flood), 3)).toBeUndefined();
    // Two more visitors make three.
    expect(learnReranking('team', ORGANIC, pickedBy([...flood, ...visitorsPick('team', 'r9', 2)]), 3)?.pins).toEqual([{ id: 'r9', position: 1, from: 9, visitors: 3 }]);
  });

  it('changes nothing when the most picked results already lead by text match', () => {
    const picks = [...visitorsPick('team', 'r1', 8), ...visitorsPick('team', 'r2', 4)];
    expect(learnReranking('team', ORGANIC, pickedBy(picks), 3)).toBeUndefined();
  });

  it("a lifted result was picked by more distinct visitors than every result it passes", () => {
    // r1 has 2 visitors (below the minimum), r4 has 3: r4 passes r1, r2, r3.
    const picks = [...visitorsPick('team', 'r1', 2), ...visitorsPick('team', 'r4', 3)];
    const learned = learnReranking('team', ORGANIC, pickedBy(picks), 3)!;
    expect(learned.pins).toEqual([{ id: 'r4', position: 1, from: 4, visitors: 3 }]);
  });

  it('a result that left the first 20 by text match (an edit) stops being lifted', () => {
    const picks = visitorsPick('team', 'r8', 5);
    const moved = ORGANIC.filter((id) => id !== 'r8');
    expect(learnReranking('team', moved, pickedBy(picks), 3)).toBeUndefined();
  });
});

describe('tallyPicks', () => {
  it('counts each visitor once per query and article, and an event naming one article twice once', () => {
    const tally = tallyPicks([
      { query: 'team', userToken: 'a', articleIds: ['x', 'x', 'y'] },
      { query: 'team', userToken: 'a', articleIds: ['x'] },
      { query: 'team', userToken: 'b', articleIds: ['x'] },
      { query: 'kpi', userToken: 'a', articleIds: ['x'] },
    ]);
    expect(tally.get('team')?.get('x')?.size).toBe(2);
    expect(tally.get('team')?.get('y')?.size).toBe(1);
    expect(tally.get('kpi')?.get('x')?.size).toBe(1);
  });
});

describe('createRerankLearner', () => {
  const NOW = Date.UTC(2026, 11, 6, 10);

  function fixture(picks: QueryPick[], off: string[] = []) {
    const applied: LearnedReranking[][] = [];
    const searched: string[] = [];
    const readSince: number[] = [];
    const learner = createRerankLearner({
      index: 'articles',
      store: {
        picks: async (index, since) => {
          expect(index).toBe('articles');
          readSince.push(since);
          return picks;
        },
        switchedOff: async () => new Map(off.map((query) => [query, NOW - 1000])),
      },
      organicResults: async (query) => {
        searched.push(query);
        return ORGANIC;
      },
      apply: async (learned) => {
        applied.push([...learned]);
      },
      minVisitors: 3,
      now: () => NOW,
    });
    return { learner, applied, searched, readSince };
  }

  it('reads the picks of the last 30 days, searches only the queries with a result picked by enough visitors, applies their order', async () => {
    const { learner, applied, searched, readSince } = fixture([...visitorsPick('team', 'r8', 4), ...visitorsPick('kpi', 'r5', 2), ...visitorsPick('agile', 'r1', 6)]);
    const outcome = await learner.learn();
    expect(readSince).toEqual([NOW - RERANK_WINDOW_MS]);
    expect(searched.sort()).toEqual(['agile', 'team']);
    expect(applied).toEqual([[{ query: 'team', pins: [{ id: 'r8', position: 1, from: 8, visitors: 4 }], visitors: 4 }]]);
    expect(outcome).toMatchObject({ at: NOW, picksRead: 12, queriesSearched: 2, switchedOff: [] });
    expect(learner.last()).toBe(outcome);
  });

  it('leaves out the queries editors switched off (shown as such), and applies an empty set when nothing is learned', async () => {
    const { learner, applied } = fixture(visitorsPick('team', 'r8', 4), ['team']);
    const outcome = await learner.learn();
    expect(applied).toEqual([[]]);
    expect(outcome.switchedOff.map((reranking) => reranking.query)).toEqual(['team']);
    expect(outcome.applied).toEqual([]);
  });
});

describe('startRerankLearner', () => {
  it('learns at start; a switch asks for a learn after the one under way (one at most waits); a failed learn is logged and the next runs', async () => {
    const log: string[] = [];
    let learns = 0;
    let fail = false;
    let release: () => void = () => {};
    let started: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const running = startRerankLearner({
      index: 'articles',
      store: { picks: async () => visitorsPick('team', 'r8', 3), switchedOff: async () => new Map() },
      organicResults: async () => {
        learns++;
        if (learns === 1) {
          started();
          await new Promise<void>((resolve) => (release = resolve));
        }
        if (fail) throw new Error('search server unreachable');
        return ORGANIC;
      },
      apply: async () => {},
      minVisitors: 3,
      // Only the start and the asked learns run within the test.
      refreshMs: 3_600_000,
      log: (message) => log.push(message),
      now: () => 1_000,
    });
    // The first learn is under way (an ask before it read anything would simply join it); two asks meanwhile join one learn after it.
    await firstStarted;
    const asked = [running.learnSoon(), running.learnSoon()];
    expect(learns).toBe(1);
    release();
    await Promise.all(asked);
    expect(learns).toBe(2);
    expect(running.last()?.applied.map((reranking) => reranking.query)).toEqual(['team']);
    expect(log).toEqual(['re-ranked 1 queries (0 switched off by editors) from 3 picks', 're-ranked 1 queries (0 switched off by editors) from 3 picks']);
    fail = true;
    await running.learnSoon();
    expect(log[2]).toMatch(/^re-ranking learn failed \(next in 3600000 ms\): search server unreachable$/);
    // The last good outcome stays.
    expect(running.last()?.applied).toHaveLength(1);
    await running.close();
  });
});
