import { describe, expect, it } from 'vitest';
import { AnalyticsManager, type NotedSearch, QUERY_FINALIZATION_INTERVAL_US } from '../src/analytics/analytics-manager.js';
import { normalizeAnalyticsQuery, searchNote } from '../src/analytics/search-note.js';

const popularRule = { name: 'popular', type: 'popular_queries', collection: 'articles', event_type: 'search', params: { destination_collection: 'queries', limit: 10 } };
const noted = (userId: string, q: string, seconds: number, found = 1): NotedSearch => ({
  collection: 'articles',
  q,
  expandedQ: q,
  found,
  filterBy: '',
  analyticsTag: '',
  userId,
  timestampUs: 1_000_000_000_000 + seconds * 1_000_000,
});
const queryCounts = (manager: AnalyticsManager, nowSeconds: number) =>
  manager
    .drain((1_000_000_000_000 + nowSeconds * 1_000_000) / 1000)
    .flatMap((change) => (change.kind === 'queries' ? change.queries.map((q) => [q.q, q.count]) : []))
    .sort();

describe('AnalyticsManager: folding a user’s searches into queries (Typesense’s 4 s window)', () => {
  it('counts the last search of a burst once, and searches further apart each', () => {
    const manager = new AnalyticsManager(undefined, () => true, { minuteRateLimit: 0 });
    manager.createRules(popularRule);
    expect(QUERY_FINALIZATION_INTERVAL_US).toBe(4_000_000);
    manager.noteSearches([noted('u1', 'le', 0), noted('u1', 'lead', 1), noted('u1', 'leadership', 2), noted('u1', 'feedback', 10), noted('u2', 'leadership', 2)]);
    expect(queryCounts(manager, 11)).toEqual([
      ['feedback', 1],
      ['leadership', 2],
    ]);
    // The period's counts went to the changes: the next flush starts from nothing.
    expect(queryCounts(manager, 12)).toEqual([]);
  });

  it('keeps no-hit searches for nohits rules only, and ignores collections without rules', () => {
    const manager = new AnalyticsManager(undefined, () => true, { minuteRateLimit: 0 });
    manager.createRules([popularRule, { ...popularRule, name: 'nohits', type: 'nohits_queries', params: { destination_collection: 'misses', limit: 10 } }]);
    manager.noteSearches([noted('u1', 'xylophone', 0, 0), { ...noted('u2', 'leadership', 0), collection: 'other' }]);
    const changes = manager.drain((1_000_000_000_000 + 20_000_000) / 1000);
    expect(changes).toEqual([{ kind: 'queries', collection: 'misses', limit: 10, queries: [{ id: expect.any(String), q: 'xylophone', count: 1 }] }]);
  });

  it('refuses events beyond the per-address minute rate limit with Typesense’s answer', () => {
    const manager = new AnalyticsManager(undefined, () => true, { minuteRateLimit: 2 });
    manager.createRules({ name: 'clicks', type: 'counter', collection: 'articles', event_type: 'click', params: { counter_field: 'popularity', weight: 1 } });
    const event = { name: 'clicks', event_type: 'click', data: { doc_id: 'a1' } };
    manager.addEvent('10.0.0.1', event);
    manager.addEvent('10.0.0.1', event);
    expect(() => manager.addEvent('10.0.0.1', event)).toThrow('event rate limit reached.');
    expect(manager.addEvent('10.0.0.2', event)).toEqual({ ok: true });
  });
});

describe('AnalyticsManager: log events held for GET /analytics/events', () => {
  it('keeps at most maxKeptEvents, forgetting the users least recently active first', () => {
    const manager = new AnalyticsManager(undefined, () => true, { minuteRateLimit: 0, maxKeptEvents: 3 });
    manager.createRules({ name: 'clicks', type: 'log', collection: 'articles', event_type: 'click' });
    const click = (user: string, doc: string) => manager.addEvent('10.0.0.1', { name: 'clicks', event_type: 'click', data: { doc_id: doc, user_id: user } });
    click('old', 'a1');
    click('active', 'a2');
    click('old', 'a3');
    click('active', 'a4');
    // Four events for three places: `old` was active less recently than `active`.
    click('new', 'a5');
    const docs = (user: string) => manager.getEvents(user, 'clicks', 10).events.map((e) => e.doc_id);
    expect(docs('old')).toEqual([]);
    expect(docs('active')).toEqual(['a4', 'a2']);
    expect(docs('new')).toEqual(['a5']);
  });
});

describe('searchNote: what a worker reports of a search', () => {
  it('normalises q like Typesense (trim, ASCII lower case) and expands it to the first hit’s words', () => {
    expect(normalizeAnalyticsQuery('  Résumé TIPS ')).toBe('résumé tips');
    const result = { found: 1, hits: [{ document: { title: 'Negotiation basics', intro: 'Prepare options' } }] };
    expect(searchNote('articles', { q: 'Negot opt', query_by: 'title,intro' }, result)).toEqual({ collection: 'articles', q: 'negot opt', expandedQ: 'negotiation options', found: 1, filterBy: '', analyticsTag: '' });
    expect(searchNote('articles', { q: 'negot zzz', query_by: 'title' }, result)?.expandedQ).toBe('negot zzz');
    expect(searchNote('articles', { q: 'negot', query_by: 'title', enable_analytics: 'false' }, result)).toBeUndefined();
    expect(searchNote('articles', { q: 'xyz', query_by: 'title', filter_by: 'a:1', analytics_tag: 't' }, { found: 0, hits: [] })).toEqual({ collection: 'articles', q: 'xyz', expandedQ: 'xyz', found: 0, filterBy: 'a:1', analyticsTag: 't' });
  });
});
