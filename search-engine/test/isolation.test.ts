import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeneratedCollection, FIELDS, heavyRequest, ORDINARY_SEARCH, statsWhen } from './support/heavy-load.js';
import { createArticleCollection, http, search, type Target, startTarget } from './support/target.js';

// Embedded only: worker pool, scheduling, back-pressure and time budget of the embedded server.
const embedded = !process.env.TYPESENSE_URL;

describe.runIf(embedded)('isolation: heavy requests do not hold ordinary ones', () => {
  let target: Target;
  let generated: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_WORKERS: '2' });
    generated = await createGeneratedCollection(target, 5000);
  }, 120_000);
  afterAll(async () => {
    await target.close();
  });

  // An order, not a time: every ordinary search and /health is answered while the heavy requests'
  // searches are still queued. Without isolation (first come, first served, bulk on every worker)
  // an ordinary search waits behind the 150 heavy searches, so the heavy requests finish first,
  // however fast the machine. The latency figure is in bench/isolation-bench.ts.
  it('while three heavy multi_search requests run, ordinary searches and /health are answered before any of them finishes', { timeout: 120_000 }, async () => {
    const ordinary = ORDINARY_SEARCH;
    const searchesBefore: number = (await http(target.url, 'GET', '/stats.json', { key: target.adminKey })).json.searches;
    const expectedFound = (await search(target, generated, ordinary)).found;
    expect(expectedFound).toBeGreaterThan(0);
    let heavyDone = 0;
    const stopHeavy = new AbortController();
    const heavy = Array.from({ length: 3 }, () =>
      heavyRequest(target, generated, stopHeavy.signal).then((response) => {
        heavyDone++;
        return response;
      }),
    );
    const answeredWhileHeavyQueued: boolean[] = [];
    let healthAnswered = 0;
    try {
      // Wait until at least two heavy requests are in the queue (more than one request's 50 searches).
      await statsWhen(target, (stats) => stats.queued > 50);
      for (let i = 0; i < 10; i++) {
        const value = await search(target, generated, ordinary);
        expect(value.found).toBe(expectedFound);
        expect((await http(target.url, 'GET', '/health')).status).toBe(200);
        healthAnswered++;
        const { queued } = (await http(target.url, 'GET', '/stats.json', { key: target.adminKey })).json;
        answeredWhileHeavyQueued.push(heavyDone === 0 && queued > 0);
      }
    } finally {
      // The heavy requests' speed is not the point: stop them (the server drops their queued searches).
      stopHeavy.abort();
      await Promise.allSettled(heavy);
    }
    expect(healthAnswered).toBe(10);
    expect(answeredWhileHeavyQueued).toEqual(Array(10).fill(true));
    // The server dropped the aborted requests' queued searches instead of running them
    // (a product bound, polled: the queue empties once the clients went away).
    const stats = await statsWhen(target, (s) => s.queued === 0);
    expect(stats.queued).toBe(0);
    expect(stats.searches - searchesBefore).toBeLessThan(150 + 20);
  });
});

describe.runIf(embedded)('back-pressure', () => {
  let target: Target;
  let small: string;
  let generated: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_WORKERS: '2', SEARCH_QUEUE_LIMIT: '60' });
    small = await createArticleCollection(target, 'pressure');
    generated = await createGeneratedCollection(target, 1000);
  }, 120_000);
  afterAll(async () => {
    await target.close();
  });

  // An order, not a time: the second request is refused while the first is still queued, not
  // after it (a server that queued it and refused later would answer after the first).
  it('answers 503 at once when the queue is full, and /health stays up', async () => {
    const searches = Array.from({ length: 50 }, () => ({ collection: small, q: 'leadership', query_by: FIELDS, per_page: 1 }));
    // A bulk request that fills 50 of the 60 places and drains slowly (bulk searches rest between runs).
    let firstDone = false;
    const first = heavyRequest(target, generated, new AbortController().signal).then(async (response) => {
      firstDone = true;
      return { status: response.status, json: await response.json() };
    });
    await statsWhen(target, (stats) => stats.queued > 10 || firstDone);
    const refused = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, body: { searches } });
    const refusedBeforeFirstFinished = !firstDone;
    expect(refused.status).toBe(503);
    expect(refusedBeforeFirstFinished).toBe(true);
    expect(refused.json).toEqual({ message: 'Not Ready or Lagging: all search workers are busy and the queue is full; retry shortly.' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await http(target.url, 'GET', '/health')).status).toBe(200);
    const served = await first;
    expect(served.status).toBe(200);
    expect(served.json.results).toHaveLength(50);
    // Once the queue drains the same request is served.
    const again = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, body: { searches } });
    expect(again.status).toBe(200);
    const stats = await http(target.url, 'GET', '/stats.json', { key: target.adminKey });
    expect(stats.json.rejectedBusy).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
