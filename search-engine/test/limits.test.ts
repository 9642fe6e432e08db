import { createHmac } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rssOfPid } from '../bench/bench-support.js';
import { createArticleCollection, http, search, type Target, startTarget } from './support/target.js';

// Embedded only: these are the embedded server's own limits (a real Typesense has others).
const embedded = !process.env.TYPESENSE_URL;

/** A scoped search key as the typesense client builds it. */
function scopedKey(parent: string, params: Record<string, unknown>): string {
  const json = JSON.stringify(params);
  const digest = createHmac('sha256', parent).update(json).digest('base64');
  return Buffer.from(`${digest}${parent.slice(0, 4)}${json}`).toString('base64');
}

describe.runIf(embedded)('request limits: refused with a clear 4xx, nothing else affected, memory bounded', () => {
  let target: Target;
  let articles: string;
  const ordinary = { q: 'leadership', query_by: 'title,content' };
  let ordinaryFound: number;

  async function expectUnaffected(): Promise<void> {
    const result = await search(target, articles, ordinary);
    expect(result.found).toBe(ordinaryFound);
    expect((await http(target.url, 'GET', '/health')).json).toEqual({ ok: true });
  }

  async function postMultiSearch(searches: unknown[], options: { key?: string; query?: string } = {}) {
    return http(target.url, 'POST', `/multi_search${options.query ?? ''}`, { key: options.key ?? target.searchKey, body: { searches } });
  }

  beforeAll(async () => {
    target = await startTarget({ SEARCH_MAX_RESPONSE_BYTES: String(32 * 1024) });
    articles = await createArticleCollection(target, 'limits');
    ordinaryFound = (await search(target, articles, ordinary)).found;
    expect(ordinaryFound).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await target.close();
  });

  it('a search-only or scoped key cannot raise limit_multi_searches above 50; the admin key can', async () => {
    const many = Array.from({ length: 200 }, () => ({ collection: articles, q: 'qqqzzz', query_by: 'title' }));
    const refused = await postMultiSearch(many, { query: '?limit_multi_searches=100000' });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ message: 'Number of multi searches exceeds `limit_multi_searches` parameter.' });
    const scoped = scopedKey(target.searchKey, { limit_multi_searches: 100000 });
    expect((await postMultiSearch(many, { key: scoped })).status).toBe(400);
    expect((await postMultiSearch(many.slice(0, 50))).status).toBe(200);
    expect((await postMultiSearch(many.slice(0, 51))).status).toBe(400);
    // A key may lower its own limit.
    expect((await postMultiSearch(many.slice(0, 3), { key: scopedKey(target.searchKey, { limit_multi_searches: 2 }) })).status).toBe(400);
    const admin = await postMultiSearch(many.slice(0, 60), { key: target.adminKey, query: '?limit_multi_searches=60' });
    expect(admin.status).toBe(200);
    expect(admin.json.results).toHaveLength(60);
    await expectUnaffected();
  });

  it('refuses long highlight tags, long queries, big filters and deep nesting in that search’s slot', async () => {
    const response = await postMultiSearch([
      { collection: articles, ...ordinary, highlight_start_tag: '<b>'.repeat(3000) },
      { collection: articles, ...ordinary, highlight_end_tag: 'x'.repeat(65) },
      { collection: articles, q: 'leedrship '.repeat(410), query_by: 'title' },
      // No word limit (Typesense has none): 100 ordinary words are a search like any other.
      { collection: articles, q: 'leadership skills for the new manager '.repeat(17).split(' ').slice(0, 100).join(' '), query_by: 'title,content' },
      { collection: articles, q: '*', filter_by: Array.from({ length: 101 }, () => 'topic:a').join(' && ') },
      { collection: articles, q: '*', filter_by: `${'('.repeat(17)}topic:a${')'.repeat(17)}` },
      { collection: articles, q: '*', query_by: 'x'.repeat(9000) },
      { collection: articles, q: '*', filter_by: Array.from({ length: 12_000 }, () => 'topic:a').join(' && ') },
      { collection: articles, ...ordinary },
    ]);
    expect(response.status).toBe(200);
    const [startTag, endTag, longQuery, manyWords, manyClauses, deep, longParameter, hugeFilter, fine] = response.json.results;
    expect(startTag).toEqual({ code: 400, error: 'Parameter `highlight_start_tag` is longer than 64 characters.' });
    expect(endTag).toEqual({ code: 400, error: 'Parameter `highlight_end_tag` is longer than 64 characters.' });
    expect(longQuery).toEqual({ code: 400, error: 'Parameter `q` is longer than 4096 characters.' });
    expect(manyWords.code).toBeUndefined();
    expect(manyWords.found).toBeGreaterThan(0);
    expect(manyClauses).toEqual({ code: 400, error: 'Filter expression has more than 100 clauses.' });
    expect(deep).toEqual({ code: 400, error: 'Filter expression is nested deeper than 16 levels.' });
    expect(longParameter).toEqual({ code: 400, error: 'Parameter `query_by` is longer than 8192 characters.' });
    // The 12,000-clause filter (a 500 stack overflow before) is refused before it is parsed.
    expect(hugeFilter).toEqual({ code: 400, error: 'Parameter `filter_by` is longer than 8192 characters.' });
    expect(fine.found).toBe(ordinaryFound);
    await expectUnaffected();
  });

  it('refuses more than 1000 hits per request (per_page × searches)', async () => {
    const searches = Array.from({ length: 5 }, () => ({ collection: articles, q: '*', per_page: 250 }));
    const response = await postMultiSearch(searches);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ message: 'The searches of one request ask for 1250 hits (sum of `per_page`); at most 1000 are allowed.' });
    expect((await postMultiSearch(searches.slice(0, 4))).status).toBe(200);
    await expectUnaffected();
  });

  it('refuses a response over the configured size with 422', async () => {
    const big = { collection: articles, q: '*', per_page: 5 };
    const response = await postMultiSearch(Array.from({ length: 40 }, () => big));
    expect(response.status).toBe(422);
    expect(response.json.message).toBe('The response would exceed the limit of 32768 bytes; ask for fewer searches, hits, fields or highlights.');
    // One search alone over the limit gets the error in its own slot.
    const single = await http(target.url, 'GET', `/collections/${articles}/documents/search?q=*&per_page=250`, { key: target.searchKey });
    expect(single.status).toBe(200);
    await expectUnaffected();
  });

  it('applies the same limits to a union multi_search (one worker task), errors answered as one {code,error}', async () => {
    const postUnion = (searches: unknown[], query = '', extra: Record<string, unknown> = {}) =>
      http(target.url, 'POST', `/multi_search${query}`, { key: target.searchKey, body: { union: true, searches, ...extra } });
    const everything = { collection: articles, q: '*', query_by: 'title' };
    const tooMany = await postUnion(Array.from({ length: 51 }, () => everything));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toEqual({ message: 'Number of multi searches exceeds `limit_multi_searches` parameter.' });
    // The query string's per_page is merged into each search: 5 × 250 hits asked for.
    const tooManyHits = await postUnion(Array.from({ length: 5 }, () => everything), '?per_page=250');
    expect(tooManyHits.status).toBe(400);
    expect(tooManyHits.json).toEqual({ message: 'The searches of one request ask for 1250 hits (sum of `per_page`); at most 1000 are allowed.' });
    const longQuery = await postUnion([everything, { ...everything, q: 'word '.repeat(1000) }]);
    expect(longQuery.status).toBe(200);
    expect(longQuery.json).toEqual({ code: 400, error: 'Parameter `q` is longer than 4096 characters.' });
    // 40 searches of all articles, duplicates kept, every field highlighted in full: over 32 KiB.
    const tag = (name: string) => `<${name}${' x'.repeat(28)}>`;
    const wide = { collection: articles, q: 'the', query_by: 'title,headline,intro,content', highlight_full_fields: 'title,headline,intro,content', highlight_start_tag: tag('mark'), highlight_end_tag: tag('/mark') };
    const tooBig = await postUnion(Array.from({ length: 40 }, () => wide), '?per_page=25', { remove_duplicates: false });
    expect(tooBig.status).toBe(200);
    expect(tooBig.json).toEqual({ code: 422, error: 'The result would exceed the response limit of 32768 bytes; ask for fewer hits, fields or highlights.' });
    const fits = await postUnion([everything, everything], '?per_page=3');
    expect(fits.status).toBe(200);
    expect(fits.json.hits).toHaveLength(3);
    // Both searches find the same documents: each shown once (remove_duplicates).
    expect(new Set(fits.json.hits.map((hit: { document: { id: string } }) => hit.document.id)).size).toBe(3);
    await expectUnaffected();
  });

  it('refuses a search body over 1 MiB with 413', async () => {
    const response = await http(target.url, 'POST', '/multi_search', {
      key: target.searchKey,
      rawBody: JSON.stringify({ searches: [{ collection: articles, q: 'x', pad: 'y'.repeat(1_100_000) }] }),
    });
    expect(response.status).toBe(413);
    expect(response.json).toEqual({ message: 'Request body is too large (limit 1048576 bytes).' });
    await expectUnaffected();
  });

  it('stays within 60 MB of its resident memory under the abusive request from the issue, repeated', async () => {
    const pid = target.process?.pid() as number;
    // Warm up the pattern once so the baseline includes the ordinary search path.
    await expectUnaffected();
    const before = rssOfPid(pid);
    const abusive = {
      collection: articles,
      q: 'leedrship '.repeat(24).trim(),
      query_by: 'title,headline,intro,content',
      highlight_full_fields: 'title,headline,intro,content',
      per_page: 250,
      highlight_start_tag: 's'.repeat(10_000),
      highlight_end_tag: 'e'.repeat(10_000),
    };
    for (let round = 0; round < 5; round++) {
      // 200 such searches are a 4 MB body: refused before anything is parsed.
      const response = await postMultiSearch(Array.from({ length: 200 }, () => abusive), { query: '?limit_multi_searches=100000' });
      expect(response.status).toBe(413);
      const tooMany = await postMultiSearch(Array.from({ length: 51 }, () => ({ ...abusive, highlight_start_tag: '<b>', highlight_end_tag: '</b>' })), { query: '?limit_multi_searches=100000' });
      expect(tooMany.status).toBe(400);
      const capped = await postMultiSearch(Array.from({ length: 50 }, () => ({ ...abusive, highlight_start_tag: '<b>', highlight_end_tag: '</b>' })));
      expect(capped.status).toBe(400);
      expect(capped.json.message).toMatch(/^The searches of one request ask for 12500 hits/);
      const fewer = await postMultiSearch(Array.from({ length: 4 }, () => abusive));
      expect(fewer.json.results.every((r: { code: number }) => r.code === 400)).toBe(true);
    }
    const after = rssOfPid(pid);
    expect(after - before).toBeLessThan(60);
    await expectUnaffected();
  });

  it('logs an aborted upload as one short line and counts it', async () => {
    const port = Number(new URL(target.url).port);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /multi_search HTTP/1.1\r\nHost: 127.0.0.1\r\nx-typesense-api-key: ${target.searchKey}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"searches":[`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    const deadline = Date.now() + 5000;
    while (!target.logs.some((line) => line.includes('client aborted')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // One JSON log line (the server logs pino JSON lines), its message short, with no stack.
    const lines = target.logs.filter((line) => line.includes('client aborted') || line.includes('    at ') || line.includes('\\n    at '));
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['[search] client aborted POST /multi_search after 13 bytes']);
    const stats = await http(target.url, 'GET', '/stats.json', { key: target.adminKey });
    expect(stats.json.abortedUploads).toBe(1);
    expect((await http(target.url, 'GET', '/stats.json', { key: target.searchKey })).status).toBe(401);
    await expectUnaffected();
  });
});
