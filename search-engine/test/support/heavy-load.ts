/**
 * The heavy load of the isolation test and its benchmark (`bench/isolation-bench.ts`): a generated
 * collection and the heaviest multi_search request the limits allow.
 */
import { iterateFixtureDocuments } from '../fixtures/generate-documents.js';
import { fixtureCollectionSchema } from '../fixtures/collection-schema.js';
import { http, type Target, uniqueName } from './target.js';

export const FIELDS = 'title,headline,intro,content';

/** An ordinary site search: one query, every field highlighted, a facet. */
export const ORDINARY_SEARCH = { q: 'leadership', query_by: FIELDS, highlight_full_fields: FIELDS, per_page: 12, facet_by: 'topic' };

/** A collection of `count` generated articles (the fixtures' corpus generator, seed 7); returns its name. */
export async function createGeneratedCollection(target: Target, count: number): Promise<string> {
  const name = uniqueName('generated');
  const created = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: fixtureCollectionSchema(name) });
  if (created.status !== 201) throw new Error(`creating ${name} answered ${created.status}`);
  const lines: string[] = [];
  for (const article of iterateFixtureDocuments(count, { seed: 7 })) {
    const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = article;
    lines.push(JSON.stringify({ id, headline, title, intro, content, image, topic, date, url, readingTime, cta, ...(subline === undefined ? {} : { subline }) }));
  }
  const imported = await http(target.url, 'POST', `/collections/${name}/documents/import?action=upsert`, { key: target.adminKey, rawBody: lines.join('\n') });
  if (imported.status !== 200 || imported.text.includes('"success":false')) throw new Error(`importing into ${name} failed: ${imported.status}`);
  return name;
}

/** 50 searches of twelve typo words with every field highlighted in full: the heaviest request the limits allow. */
export function heavyRequest(target: Target, collection: string, signal: AbortSignal): Promise<Response> {
  const searches = Array.from({ length: 50 }, () => ({ collection, q: 'leedrship '.repeat(12).trim(), query_by: FIELDS, highlight_full_fields: FIELDS, per_page: 20 }));
  return fetch(`${target.url}/multi_search`, { method: 'POST', headers: { 'x-typesense-api-key': target.searchKey }, body: JSON.stringify({ searches }), signal });
}

/** Polls /stats.json until `ready` holds: a wait on the server's state, not on the clock. */
export async function statsWhen(target: Target, ready: (stats: any) => boolean): Promise<any> {
  for (;;) {
    const stats = (await http(target.url, 'GET', '/stats.json', { key: target.adminKey })).json;
    if (ready(stats)) return stats;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
