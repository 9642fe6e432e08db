import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACET_SEARCH_CAP } from 'contracts';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { teaserIntro } from '../hits/teaserFields.js';
import type { ArticleHit } from '../hits/articleHit.js';
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from '../highlight/parseHighlight.js';
import { createSearchClient } from './createSearchClient.js';

/** More distinct topic values than the facet-value search may return. */
const TOPIC_COUNT = FACET_SEARCH_CAP + 50;
const articles = Array.from({ length: TOPIC_COUNT }, (_, i) => ({
  id: `skill-${i}`,
  headline: `Skill ${i}`,
  title: `Skill article ${i}`,
  intro: 'An intro.',
  content: 'Some content.',
  image: '/content-images/skill.svg',
  topic: [`Skill ${String(i).padStart(3, '0')}`],
  date: 1_763_000_000 + i,
  url: `/articles/skill-${i}`,
  readingTime: 3,
  cta: 'Read',
}));

/** Long text (well over the snippet threshold) with `word` somewhere in the middle, or nowhere. */
const longContent = (word?: string) =>
  [...Array.from({ length: 300 }, (_, i) => `filler${i}`), ...(word ? [word] : []), ...Array.from({ length: 300 }, (_, i) => `tail${i}`)].join(' ');
const base = { image: '/content-images/bird.svg', topic: ['Birds'], date: 1_763_000_000, url: '/articles/bird', readingTime: 3, cta: 'Read' };
/** The intro/content-snippet rule: one article per branch, all found by "zebrafinch". */
const birdArticles = [
  { ...base, id: 'intro-matches', headline: 'Birds one', title: 'Birds one', intro: 'The zebrafinch sings.', content: longContent('zebrafinch') },
  { ...base, id: 'content-matches', headline: 'Birds two', title: 'Birds two', intro: 'A plain intro.', content: longContent('zebrafinch') },
  { ...base, id: 'title-matches', headline: 'Birds three', title: 'The zebrafinch', intro: 'Another plain intro.', content: longContent() },
];

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer({ articles: [...articles, ...birdArticles] });
}, 30_000);
afterAll(async () => server?.close());

describe('createSearchClient on the embedded search server', () => {
  it(`caps facet-value searches at ${FACET_SEARCH_CAP} values`, async () => {
    const setup = createSearchClient(server.pageConfig().search);
    const client = setup.searchClient as unknown as {
      searchForFacetValues(requests: unknown[]): Promise<Array<{ facetHits: Array<{ value: string; highlighted: string }> }>>;
    };
    const [answer] = await client.searchForFacetValues([
      { indexName: setup.indexName, params: { facetName: 'topic', facetQuery: 'skill', query: '', facets: ['topic'], maxFacetHits: TOPIC_COUNT } },
    ]);
    expect(answer!.facetHits).toHaveLength(FACET_SEARCH_CAP);
    expect(answer!.facetHits[0]!.highlighted).toMatch(/^<mark>Skill<\/mark> \d{3}$|^__ais-highlight__Skill__\/ais-highlight__ \d{3}$/);
  });

  it('answers the queries of one search together; suggestion hits carry only id and title', async () => {
    const setup = createSearchClient(server.pageConfig().search);
    const search = await setup.searchClient.search([
      { indexName: setup.indexName, params: { query: 'skill', hitsPerPage: 3, facets: ['topic'] } },
      { indexName: setup.indexName, params: { query: 'skill', hitsPerPage: 0, facets: ['topic'] } },
    ] as never);
    expect((search as { results: unknown[] }).results).toHaveLength(2);
    const suggestions = (await setup.suggestionClient.search([{ indexName: setup.indexName, params: { query: 'skill', hitsPerPage: 2 } }] as never)) as {
      results: Array<{ hits: Array<Record<string, unknown>> }>;
    };
    expect(Object.keys(suggestions.results[0]!.hits[0]!).filter((key) => !key.startsWith('_'))).toEqual(expect.arrayContaining(['id', 'title', 'objectID']));
    expect(suggestions.results[0]!.hits[0]).not.toHaveProperty('content');
  });

  it('answers carry no content, only its snippet: the teaser shows the intro if it matched, else the content snippet, else the intro', async () => {
    const setup = createSearchClient(server.pageConfig().search);
    const answer = (await setup.searchClient.search([
      { indexName: setup.indexName, params: { query: 'zebrafinch', hitsPerPage: 10, highlightPreTag: HIGHLIGHT_PRE_TAG, highlightPostTag: HIGHLIGHT_POST_TAG } },
    ] as never)) as { results: Array<{ hits: ArticleHit[] }> };
    const hits = new Map(answer.results[0]!.hits.map((hit) => [hit.objectID, hit]));
    expect([...hits.keys()].sort()).toEqual(['content-matches', 'intro-matches', 'title-matches']);
    for (const hit of hits.values()) {
      // The full text never travels: at most the adapter's empty stand-in.
      expect(hit.content ?? '').toBe('');
      // Nor does what the list never reads: the raw hit, match scores, highlights of other fields.
      expect(hit).not.toHaveProperty('_rawTypesenseHit');
      expect(hit).not.toHaveProperty('text_match_info');
      // Of the highlights, only what the teaser shows (`teaserHighlights`).
      expect(['headline', 'intro', 'title']).toEqual(expect.arrayContaining(Object.keys(hit._highlightResult ?? {})));
      expect(['content']).toEqual(expect.arrayContaining(Object.keys(hit._snippetResult ?? {})));
      expect(hit).toMatchObject({ id: hit.objectID, url: '/articles/bird', image: '/content-images/bird.svg', topic: ['Birds'], readingTime: 3, cta: 'Read' });
    }
    const text = (hit: ArticleHit | undefined) => teaserIntro(hit!).map((s) => (s.highlighted ? `[${s.text}]` : s.text)).join('');

    const contentSnippet = hits.get('content-matches')!._snippetResult as Record<string, { value: string; matchLevel: string }>;
    expect(contentSnippet.content!.matchLevel).toBe('full');
    expect(contentSnippet.content!.value).toContain(`${HIGHLIGHT_PRE_TAG}zebrafinch${HIGHLIGHT_POST_TAG}`);
    // A window around the match, not the whole text.
    expect(contentSnippet.content!.value.length).toBeLessThan(longContent('zebrafinch').length / 4);
    expect(text(hits.get('content-matches'))).toMatch(/^\S.* \[zebrafinch\] .*\S$/);
    expect(text(hits.get('content-matches'))).not.toContain('filler0 ');

    // The title matched, the intro did not: its highlight (its own text) and the snippet stay behind.
    expect(hits.get('title-matches')!._highlightResult).toHaveProperty('title');
    expect(hits.get('title-matches')!._highlightResult).not.toHaveProperty('intro');
    expect(hits.get('intro-matches')).not.toHaveProperty('_snippetResult');

    expect(text(hits.get('intro-matches'))).toBe('The [zebrafinch] sings.');
    expect(text(hits.get('title-matches'))).toBe('Another plain intro.');
  });
});
