import { describe, expect, it } from 'vitest';
import type { SearchClient } from 'instantsearch.js';
import { compactListHit, withCompactListHits } from './compactListHits.js';

const highlight = (value: string) => ({ value, matchLevel: 'full', matchedWords: ['team'] });
const adapterHit = {
  id: 'a',
  objectID: 'a',
  title: 'Team',
  headline: 'The team',
  intro: 'Intro',
  url: '/articles/a',
  topic: ['Leadership'],
  content: '',
  text_match: 578730123365189800,
  text_match_info: { score: '1' },
  _rawTypesenseHit: { document: { id: 'a', title: 'Team' }, highlight: {} },
  _highlightResult: { id: highlight('a'), url: highlight('/articles/a'), title: highlight('Team'), headline: highlight('The team'), intro: highlight('Intro') },
  _snippetResult: { id: highlight('a'), title: highlight('Team'), content: highlight('… team …') },
};

const teaserHighlight = (value: string, matchLevel = 'full') => ({ value, matchLevel });

describe('compactListHit', () => {
  it("keeps the document fields and, of the highlights, only the teaser's values and match levels", () => {
    expect(compactListHit(adapterHit)).toEqual({
      id: 'a',
      objectID: 'a',
      title: 'Team',
      headline: 'The team',
      intro: 'Intro',
      url: '/articles/a',
      topic: ['Leadership'],
      content: '',
      _highlightResult: { title: teaserHighlight('Team'), headline: teaserHighlight('The team'), intro: teaserHighlight('Intro') },
    });
  });

  it('keeps the content snippet only when it matched and the intro did not (the one case the teaser shows it)', () => {
    const introUnmatched = { ...adapterHit, _highlightResult: { ...adapterHit._highlightResult, intro: { value: 'Intro', matchLevel: 'none', matchedWords: [] } } };
    expect(compactListHit(introUnmatched)).toMatchObject({ _snippetResult: { content: teaserHighlight('… team …') } });
    const neitherMatched = { ...introUnmatched, _snippetResult: { content: { value: '… text …', matchLevel: 'none', matchedWords: [] } } };
    expect(compactListHit(neitherMatched)).not.toHaveProperty('_snippetResult');
  });

  it('drops a highlight that matched nothing and equals its field, and keeps one that differs', () => {
    const hit = {
      objectID: 'c',
      title: 'Plain',
      intro: 'Plain intro',
      _highlightResult: { title: { value: 'Plain', matchLevel: 'none', matchedWords: [] }, intro: { value: 'Other intro', matchLevel: 'none', matchedWords: [] } },
    };
    expect(compactListHit(hit)).toEqual({ objectID: 'c', title: 'Plain', intro: 'Plain intro', _highlightResult: { intro: teaserHighlight('Other intro', 'none') } });
  });

  it('leaves a hit without highlights without them', () => {
    expect(compactListHit({ objectID: 'b', title: 'B' })).toEqual({ objectID: 'b', title: 'B' });
  });
});

describe('withCompactListHits', () => {
  it("compacts every answer's hits and keeps the rest of each answer", async () => {
    const client = {
      search: async () => ({ results: [{ hits: [adapterHit], nbHits: 1, page: 0 }, { facetHits: [] }] }),
    };
    const compacted = withCompactListHits(client as unknown as Pick<SearchClient, 'search'>);
    const answer = (await compacted.search([] as never)) as unknown as { results: Array<Record<string, unknown>> };
    expect(answer.results[0]).toMatchObject({ nbHits: 1, page: 0 });
    expect(answer.results[0]!.hits).toEqual([compactListHit(adapterHit)]);
    expect(answer.results[1]).toEqual({ facetHits: [] });
  });
});
