import Typesense from 'typesense';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, multiSearch, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * Typesense 30 analytics over HTTP. Against a real Typesense (TYPESENSE_URL) the server must run
 * with `--enable-search-analytics=true --analytics-dir=… --analytics-minute-rate-limit=1000`
 * (its default allows 5 events per minute and address).
 */
describe('analytics (Typesense 30): rules, events, counters, popular and no-hits queries', () => {
  let target: Target;
  let articles: string;
  let products: string;
  let popular: string;
  let nohits: string;
  const rules: string[] = [];
  const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => http(target.url, method, path, { key: target.adminKey, body, headers });
  const createRule = async (rule: Record<string, unknown>) => {
    const created = await admin('POST', '/analytics/rules', rule);
    if (created.status !== 200) throw new Error(`create rule: ${created.status} ${created.text}`);
    rules.push(rule.name as string);
    return created;
  };
  const postEvent = (event: unknown) => admin('POST', '/analytics/events', event);
  /** Flushes (Typesense flushes in the background: wait until nothing is pending, at most ~10 s). */
  const flush = async () => {
    expect((await admin('POST', '/analytics/flush')).json).toEqual({ ok: true });
    for (let attempt = 0; attempt < 50; attempt++) {
      const status = (await admin('GET', '/analytics/status')).json as Record<string, number>;
      if (Object.values(status).every((value) => value === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('analytics did not flush');
  };
  /** A search as a given user (Typesense's `x-typesense-user-id` header). */
  const searchAs = (user: string, collection: string, params: Record<string, string>) =>
    http(target.url, 'GET', `/collections/${collection}/documents/search?${new URLSearchParams(params)}`, { key: target.searchKey, headers: { 'x-typesense-user-id': user } });

  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'analytics');
    products = uniqueName('products');
    popular = uniqueName('popular');
    nohits = uniqueName('nohits');
    await admin('POST', '/collections', { name: products, fields: [{ name: 'name', type: 'string' }, { name: 'popularity', type: 'int32', optional: true }] });
    const productDocs = [
      { id: 'p1', name: 'Leadership course', popularity: 0 },
      { id: 'p2', name: 'Feedback course', popularity: 0 },
      { id: 'p3', name: 'Negotiation course', popularity: 0 },
    ];
    await http(target.url, 'POST', `/collections/${products}/documents/import`, { key: target.adminKey, rawBody: productDocs.map((d) => JSON.stringify(d)).join('\n') });
    for (const name of [popular, nohits]) await admin('POST', '/collections', { name, fields: [{ name: 'q', type: 'string' }, { name: 'count', type: 'int32' }] });
  });
  afterAll(async () => {
    for (const rule of rules) await admin('DELETE', `/analytics/rules/${rule}`);
    for (const name of [articles, products, popular, nohits]) await admin('DELETE', `/collections/${name}`);
    await target.close();
  });

  it('creates, reads, lists by tag, updates and deletes rules of the four types', async () => {
    const clicks = uniqueName('clicks');
    const created = await createRule({ name: clicks, type: 'log', collection: products, event_type: 'click', rule_tag: 'crud' });
    expect(created.json).toEqual({ name: clicks, type: 'log', collection: products, event_type: 'click', rule_tag: 'crud' });
    const counter = uniqueName('counter');
    await createRule({ name: counter, type: 'counter', collection: products, event_type: 'conversion', rule_tag: 'crud', params: { counter_field: 'popularity', weight: 2 } });
    const queries = uniqueName('queries');
    await createRule({ name: queries, type: 'popular_queries', collection: articles, event_type: 'search', rule_tag: 'crud', params: { destination_collection: popular, limit: 5, meta_fields: ['analytics_tag'] } });

    expect((await admin('GET', `/analytics/rules/${counter}`)).json).toEqual({
      name: counter,
      type: 'counter',
      collection: products,
      event_type: 'conversion',
      rule_tag: 'crud',
      params: { counter_field: 'popularity', destination_collection: products, weight: 2 },
    });
    expect((await admin('GET', `/analytics/rules/${queries}`)).json).toEqual({
      name: queries,
      type: 'popular_queries',
      collection: articles,
      event_type: 'search',
      rule_tag: 'crud',
      params: { destination_collection: popular, limit: 5, meta_fields: ['analytics_tag'], expand_query: false, capture_search_requests: true },
    });
    const tagged = (await admin('GET', '/analytics/rules?rule_tag=crud')).json as { name: string }[];
    expect(tagged.map((r) => r.name).sort()).toEqual([clicks, counter, queries].sort());

    const updated = await admin('PUT', `/analytics/rules/${queries}`, { rule_tag: 'changed', params: { limit: 3 } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: queries, rule_tag: 'changed', params: { limit: 3, destination_collection: popular } });
    expect((await admin('GET', `/analytics/rules/${queries}`)).json.params.limit).toBe(3);
    expect((await admin('GET', '/analytics/rules?rule_tag=crud')).json.map((r: { name: string }) => r.name)).not.toContain(queries);

    const deleted = await admin('DELETE', `/analytics/rules/${clicks}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ name: clicks, type: 'log', collection: products, event_type: 'click' });
    expect(await admin('GET', `/analytics/rules/${clicks}`)).toMatchObject({ status: 400, json: { message: 'Rule not found' } });
    expect(await admin('DELETE', `/analytics/rules/${clicks}`)).toMatchObject({ status: 400, json: { message: 'Rule not found' } });
    // The rules below count into collections other tests read.
    for (const name of [counter, queries]) expect((await admin('DELETE', `/analytics/rules/${name}`)).status).toBe(200);
    expect((await admin('GET', '/analytics/rules?rule_tag=crud')).json).toEqual([]);
  });

  it('refuses malformed rules with Typesense messages, item by item for an array', async () => {
    const refused = async (rule: unknown, method = 'POST', path = '/analytics/rules') => {
      const answer = await admin(method, path, rule);
      expect(answer.status).toBe(400);
      return answer.json.message as string;
    };
    const name = uniqueName('bad');
    expect(await refused({ type: 'log', collection: products, event_type: 'click' })).toBe('Name is required when creating an analytics rule');
    expect(await refused({ name, type: 'log', collection: products })).toBe('Event type is required when creating a new analytics rule');
    expect(await refused({ name, event_type: 'click', collection: products })).toBe('Type is required when creating a new analytics rule');
    expect(await refused({ name, type: 'log', event_type: 'click' })).toBe('Collection is required when creating a new analytics rule');
    expect(await refused({ name, type: 'log', event_type: 'click', collection: 'no_such_collection' })).toBe('Collection no_such_collection does not exist');
    expect(await refused({ name, type: 'counter', event_type: 'search', collection: products })).toBe('Event type or type is invalid (or) combination of both is invalid');
    expect(await refused({ name, type: 'log', event_type: 'hover', collection: products })).toBe('Event type or type is invalid (or) combination of both is invalid');
    expect(await refused({ name, type: 'counter', event_type: 'click', collection: products, params: { weight: 1 } })).toBe('Counter field is required when creating a counter type rule');
    expect(await refused({ name, type: 'counter', event_type: 'click', collection: products, params: { counter_field: 'popularity', weight: 0 } })).toBe('Weight should be a number greater than 0');
    expect(await refused({ name, type: 'counter', event_type: 'click', collection: products, params: { counter_field: 'popularity', weight: 1, destination_collection: 'no_such_collection' } })).toBe(
      'Destination collection does not exist',
    );
    expect(await refused({ name, type: 'popular_queries', event_type: 'search', collection: articles, params: { limit: 10 } })).toBe(
      'Destination collection is required when creating a no hit queries or popular queries type rule',
    );
    expect(await refused({ name, type: 'nohits_queries', event_type: 'search', collection: articles, params: { destination_collection: nohits, limit: 0 } })).toBe('Limit should be a number greater than 0');
    expect(await refused({ name, type: 'popular_queries', event_type: 'search', collection: articles, params: { destination_collection: popular, limit: 5, meta_fields: ['q'] } })).toBe(
      'Meta field should be either filter_by or analytics_tag',
    );
    expect(await refused({ name, type: 'popular_queries', event_type: 'search', collection: articles, params: { destination_collection: popular, limit: 5, expand_query: 'yes' } })).toBe('Expand query should be a boolean');
    expect((await admin('POST', '/analytics/rules', undefined, { 'content-type': 'application/json' })).status).toBe(400);
    expect((await http(target.url, 'POST', '/analytics/rules', { key: target.adminKey, rawBody: '{"name":' })).json).toEqual({ message: 'Bad JSON.' });

    const existing = uniqueName('existing');
    await createRule({ name: existing, type: 'log', collection: products, event_type: 'visit' });
    expect(await refused({ name: existing, type: 'log', collection: products, event_type: 'visit' })).toBe('Rule already exists');
    expect(await refused({ type: 'counter' }, 'PUT', `/analytics/rules/${existing}`)).toBe('Rule type cannot be changed');
    expect(await refused({ event_type: 'click' }, 'PUT', `/analytics/rules/${existing}`)).toBe('Rule event type cannot be changed');
    expect(await refused({ collection: articles }, 'PUT', `/analytics/rules/${existing}`)).toBe('Rule collection cannot be changed');

    const ok = uniqueName('batch');
    const batch = await admin('POST', '/analytics/rules', [
      { name: ok, type: 'log', collection: products, event_type: 'click' },
      { name: uniqueName('batch'), type: 'log', collection: 'no_such_collection', event_type: 'click' },
    ]);
    rules.push(ok);
    expect(batch.status).toBe(200);
    expect(batch.json).toEqual([{ name: ok, type: 'log', collection: products, event_type: 'click' }, { error: 'Collection no_such_collection does not exist' }]);

    const searchKey = await http(target.url, 'GET', '/analytics/rules', { key: target.searchKey });
    expect(searchKey.status).toBe(401);
    expect((await http(target.url, 'POST', '/analytics/events', { key: target.searchKey, body: { name: ok, event_type: 'click', data: { doc_id: 'p1', user_id: 'u' } } })).status).toBe(401);
  });

  it('validates events with Typesense messages and keeps log events for GET /analytics/events, newest first', async () => {
    const clicks = uniqueName('clicks');
    await createRule({ name: clicks, type: 'log', collection: products, event_type: 'click' });
    const counter = uniqueName('counter');
    await createRule({ name: counter, type: 'counter', collection: products, event_type: 'click', params: { counter_field: 'popularity', weight: 1 } });
    const searches = uniqueName('searches');
    await createRule({ name: searches, type: 'log', collection: articles, event_type: 'search', params: { capture_search_requests: false } });
    const refusal = async (event: unknown) => {
      const answer = await postEvent(event);
      expect(answer.status).toBe(400);
      return answer.json.message as string;
    };
    expect(await refusal({ event_type: 'click', data: { doc_id: 'p1', user_id: 'u1' } })).toBe('name is required');
    expect(await refusal({ name: clicks, event_type: 'click' })).toBe('data is required');
    expect(await refusal({ name: clicks, event_type: 'click', data: { doc_id: 'p1', user_id: 7 } })).toBe('user_id should be a string');
    expect(await refusal({ name: uniqueName('unknown'), event_type: 'click', data: { doc_id: 'p1', user_id: 'u1' } })).toBe('Rule not found');
    expect(await refusal({ name: counter, event_type: 'click', data: { user_id: 'u1' } })).toBe('doc_ids or doc_id is required');
    expect(await refusal({ name: counter, event_type: 'click', data: { doc_id: 'p1', doc_ids: ['p2'], user_id: 'u1' } })).toBe('doc_ids and doc_id cannot both be present');
    expect(await refusal({ name: counter, event_type: 'click', data: { doc_ids: 'p1', user_id: 'u1' } })).toBe('doc_ids should be an array');
    expect(await refusal({ name: counter, event_type: 'click', data: { doc_id: 1, user_id: 'u1' } })).toBe('doc_id should be a string');
    expect(await refusal({ name: searches, event_type: 'search', data: { user_id: 'u1' } })).toBe("'q' should be a string and is required");

    const user = uniqueName('user');
    expect((await postEvent({ name: clicks, event_type: 'click', data: { doc_id: 'p1', user_id: user } })).json).toEqual({ ok: true });
    expect((await postEvent({ name: clicks, event_type: 'click', data: { doc_ids: ['p3', 'p2'], user_id: user } })).json).toEqual({ ok: true });
    await postEvent({ name: clicks, event_type: 'click', data: { doc_id: 'p2', user_id: uniqueName('someone') } });
    await postEvent({ name: searches, event_type: 'search', data: { q: 'leadership', user_id: user } });

    const read = await admin('GET', `/analytics/events?user_id=${user}&name=${clicks}&n=10`);
    expect(read.status).toBe(200);
    const events = read.json.events as Record<string, unknown>[];
    expect(events.map((e) => e.doc_ids ?? e.doc_id)).toEqual([['p3', 'p2'], 'p1']);
    expect(events[1]).toMatchObject({ name: clicks, event_type: 'click', collection: products, user_id: user, doc_id: 'p1' });
    expect(typeof events[1]?.timestamp).toBe('number');
    expect((await admin('GET', `/analytics/events?user_id=${user}&name=${clicks}&n=1`)).json.events.map((e: { doc_ids: string[] }) => e.doc_ids)).toEqual([['p3', 'p2']]);
    expect((await admin('GET', `/analytics/events?user_id=${user}&name=${searches}&n=10`)).json.events).toMatchObject([{ name: searches, event_type: 'search', query: 'leadership', user_id: user, collection: articles }]);

    expect(await admin('GET', `/analytics/events?name=${clicks}&n=10`)).toMatchObject({ status: 400, json: { message: "Missing required parameter 'user_id'." } });
    expect(await admin('GET', `/analytics/events?user_id=${user}&n=10`)).toMatchObject({ status: 400, json: { message: "Missing required parameter 'name'." } });
    expect(await admin('GET', `/analytics/events?user_id=${user}&name=${clicks}`)).toMatchObject({ status: 400, json: { message: "Missing required parameter 'n'." } });
    expect(await admin('GET', `/analytics/events?user_id=${user}&name=${clicks}&n=1001`)).toMatchObject({ status: 400, json: { message: 'N cannot be greater than 1000' } });
    expect(await admin('GET', `/analytics/events?user_id=${user}&name=${uniqueName('unknown')}&n=1`)).toMatchObject({ status: 400, json: { message: 'Rule not found' } });
    await flush();
  });

  it('a counter rule moves clicked and bought documents up in a popularity:desc sort, on every worker', async () => {
    const clicks = uniqueName('click_counter');
    const orders = uniqueName('order_counter');
    await createRule({ name: clicks, type: 'counter', collection: products, event_type: 'click', params: { counter_field: 'popularity', weight: 1 } });
    await createRule({ name: orders, type: 'counter', collection: products, event_type: 'conversion', params: { counter_field: 'popularity', weight: 5 } });
    const ranked = async () => {
      const results = await multiSearch(target, [0, 1, 2, 3].map(() => ({ collection: products, q: 'course', query_by: 'name', sort_by: 'popularity:desc' })));
      return results.map(hitIds);
    };
    // All at 0: the newest document first, p1 last.
    for (const ids of await ranked()) expect(ids).toEqual(['p3', 'p2', 'p1']);

    // p1: two clicks and one conversion (2 + 5); p2: one click; p3 nothing.
    await postEvent({ name: clicks, event_type: 'click', data: { doc_id: 'p1', user_id: 'u1' } });
    await postEvent({ name: clicks, event_type: 'click', data: { doc_ids: ['p1', 'p2'], user_id: 'u2' } });
    await postEvent({ name: orders, event_type: 'conversion', data: { doc_id: 'p1', user_id: 'u1' } });
    await postEvent({ name: clicks, event_type: 'click', data: { doc_id: 'missing-document', user_id: 'u1' } });
    // Counted, not yet applied: the documents change at the flush.
    expect((await admin('GET', `/collections/${products}/documents/p1`)).json.popularity).toBe(0);
    await flush();

    expect((await admin('GET', `/collections/${products}/documents/p1`)).json.popularity).toBe(7);
    expect((await admin('GET', `/collections/${products}/documents/p2`)).json.popularity).toBe(1);
    expect((await admin('GET', `/collections/${products}/documents/p3`)).json.popularity).toBe(0);
    // Every worker's index answers the new order (four searches of one request spread over the pool).
    for (const ids of await ranked()) expect(ids).toEqual(['p1', 'p2', 'p3']);
  });

  it('aggregates searches into popular and no-hits queries at a flush: a user typing counts once, expand_query completes the words', async () => {
    const popularRule = uniqueName('popular');
    const nohitsRule = uniqueName('nohits');
    await createRule({ name: popularRule, type: 'popular_queries', collection: articles, event_type: 'search', params: { destination_collection: popular, limit: 4, expand_query: true } });
    await createRule({ name: nohitsRule, type: 'nohits_queries', collection: articles, event_type: 'search', params: { destination_collection: nohits, limit: 10 } });
    const query = { query_by: 'title,intro' };
    // One user typing: three searches in a row make one query.
    for (const q of ['lead', 'leader', 'Leadership']) await searchAs('typist', articles, { ...query, q });
    // Others, through multi_search (answered by either worker), each a query of their own.
    for (const user of ['reader-1', 'reader-2']) {
      const answer = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, headers: { 'x-typesense-user-id': user }, body: { searches: [{ collection: articles, ...query, q: 'leadership' }] } });
      expect(answer.status).toBe(200);
    }
    await searchAs('prefix-user', articles, { ...query, q: 'negot' });
    await searchAs('feedback-user', articles, { ...query, q: 'feedback' });
    await searchAs('missing-1', articles, { ...query, q: 'xylophone' });
    await searchAs('missing-2', articles, { ...query, q: 'Xylophone ' });
    await searchAs('quiet-user', articles, { ...query, q: 'agile', enable_analytics: 'false' });
    // A search event counts as it is sent (no folding, no expansion).
    expect((await postEvent({ name: popularRule, event_type: 'search', data: { q: 'coaching', user_id: 'app-user' } })).json).toEqual({ ok: true });
    await flush();

    const counts = async (collection: string) => {
      const result = (await http(target.url, 'GET', `/collections/${collection}/documents/search?q=*&sort_by=count:desc&per_page=50`, { key: target.adminKey })).json;
      return Object.fromEntries((result.hits as { document: { q: string; count: number } }[]).map((h) => [h.document.q, h.document.count]));
    };
    // `agile` (enable_analytics=false) is not counted.
    expect(await counts(popular)).toEqual({ leadership: 3, negotiation: 1, feedback: 1, coaching: 1 });
    expect(await counts(nohits)).toEqual({ xylophone: 2 });

    // The next period adds to the stored counts; beyond the limit the lowest go.
    await searchAs('typist', articles, { ...query, q: 'remote' });
    await searchAs('reader-1', articles, { ...query, q: 'remote' });
    await searchAs('reader-2', articles, { ...query, q: 'leadership' });
    await searchAs('quiet-user', articles, { ...query, q: 'agile' });
    await flush();
    // Six queries for a limit of 4: two of those counted once go.
    const next = await counts(popular);
    expect(next.leadership).toBe(4);
    expect(next.remote).toBe(2);
    expect(Object.values(next).sort()).toEqual([1, 1, 2, 4]);
  });

  it('the official typesense client (2.1.0) manages rules and sends events with v30 bodies', async () => {
    const client = new Typesense.Client({ nodes: [{ url: target.url } as never], apiKey: target.adminKey, numRetries: 0, logLevel: 'silent' });
    const name = uniqueName('client_clicks');
    // The client's types describe the v29 rule shape; the v30 body goes through as it is.
    const rule = { type: 'counter', collection: products, event_type: 'click', params: { counter_field: 'popularity', weight: 2 } };
    const upserted = await client.analytics.rules().upsert(name, rule as never);
    rules.push(name);
    expect(upserted).toMatchObject({ name, type: 'counter', collection: products });
    expect(await client.analytics.rules(name).retrieve()).toMatchObject({ name, params: { counter_field: 'popularity', weight: 2 } });
    expect(((await client.analytics.rules().retrieve()) as unknown as { name: string }[]).map((r) => r.name)).toContain(name);
    expect(await client.analytics.events().create({ name, type: 'click', event_type: 'click', data: { doc_id: 'p3', user_id: 'client-user' } } as never)).toEqual({ ok: true });
    const before = (await admin('GET', `/collections/${products}/documents/p3`)).json.popularity as number;
    await flush();
    expect((await admin('GET', `/collections/${products}/documents/p3`)).json.popularity).toBe(before + 2);
    await expect(client.analytics.events().create({ name: uniqueName('unknown'), type: 'click', data: { doc_id: 'p3' } })).rejects.toMatchObject({ httpStatus: 400, message: expect.stringContaining('Rule not found') });
    expect(await client.analytics.rules(name).delete()).toMatchObject({ name });
  });

  it('a search log rule records what each user searched (captured searches) for GET /analytics/events', async () => {
    const log = uniqueName('search_log');
    await createRule({ name: log, type: 'log', collection: articles, event_type: 'search', params: { expand_query: true, meta_fields: ['filter_by'] } });
    const user = uniqueName('user');
    await searchAs(user, articles, { q: 'feedb', query_by: 'title', filter_by: 'readingTime:>1' });
    await flush();
    const events = (await admin('GET', `/analytics/events?user_id=${user}&name=${log}&n=5`)).json.events;
    expect(events).toMatchObject([{ name: log, event_type: 'search', query: 'feedback', user_id: user, collection: articles, filter_by: 'readingTime:>1' }]);
  });
});
