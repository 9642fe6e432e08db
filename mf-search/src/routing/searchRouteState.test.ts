import { describe, expect, it } from 'vitest';
import { QUERY_STRING_ARRAY_LIMIT, SEARCH_INPUT_MAX_LENGTH } from 'contracts';
import { routeToUiState, uiStateToRoute } from './searchRouteState.js';

const index = 'competence-articles';

describe('search route state', () => {
  it('round-trips query, page and facet filters', () => {
    const uiState = { [index]: { query: 'feedback', page: 3, refinementList: { topic: ['Leadership', 'Coaching'] } } };
    const route = uiStateToRoute(uiState, index, ['topic']);
    expect(route).toEqual({ q: 'feedback', page: 3, topic: ['Leadership', 'Coaching'] });
    expect(routeToUiState(route, index, ['topic'])).toEqual(uiState);
  });

  it('reads untrusted addresses safely: long queries cut, arrays capped, junk ignored', () => {
    const topics = Array.from({ length: QUERY_STRING_ARRAY_LIMIT + 5 }, (_, i) => `t${i}`);
    const state = routeToUiState({ q: 'x'.repeat(600), page: 'abc' as never, topic: topics, other: ['y'] }, index, ['topic'])[index]!;
    expect(state.query).toHaveLength(SEARCH_INPUT_MAX_LENGTH);
    expect(state.page).toBeUndefined();
    expect(state.refinementList?.topic).toHaveLength(QUERY_STRING_ARRAY_LIMIT);
    expect(routeToUiState({ topic: 'Leadership' }, index, ['topic'])[index]).toEqual({ refinementList: { topic: ['Leadership'] } });
  });
});
