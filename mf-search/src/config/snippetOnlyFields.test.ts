import { describe, expect, it } from 'vitest';
import { withSnippetOnlyFields, type TypesenseMultiSearchResponse } from './snippetOnlyFields.js';

const snippet = { matched_tokens: ['coach'], snippet: '… the <mark>coach</mark> said …' };

describe('withSnippetOnlyFields', () => {
  it('adds an empty stand-in only where the excluded field matched, without changing the given answer', () => {
    const response: TypesenseMultiSearchResponse = {
      results: [
        {
          found: 2,
          hits: [
            { document: { id: 'a', intro: 'Intro' }, highlight: { content: snippet } },
            { document: { id: 'b', intro: 'Intro' }, highlight: { intro: { matched_tokens: ['in'], snippet: '<mark>In</mark>tro' } } },
          ],
        },
        { code: 400, error: 'bad' },
      ],
    };
    const copy = structuredClone(response);
    const completed = withSnippetOnlyFields(response, ['content']);
    expect(completed.results[0]!.hits![0]!.document).toEqual({ id: 'a', intro: 'Intro', content: '' });
    expect(completed.results[0]!.hits![0]!.highlight).toEqual({ content: snippet });
    expect(completed.results[0]!.hits![1]!.document).toEqual({ id: 'b', intro: 'Intro' });
    expect(completed.results[0]!.found).toBe(2);
    expect(completed.results[1]).toEqual({ code: 400, error: 'bad' });
    expect(response).toEqual(copy);
  });

  it('leaves a field the document still has alone', () => {
    const response: TypesenseMultiSearchResponse = { results: [{ hits: [{ document: { id: 'a', content: 'Full text' }, highlight: { content: snippet } }] }] };
    expect(withSnippetOnlyFields(response, ['content']).results[0]!.hits![0]!.document.content).toBe('Full text');
  });
});
