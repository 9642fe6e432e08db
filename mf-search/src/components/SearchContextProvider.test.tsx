// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchContextProvider, useSearchListContext } from './SearchContextProvider.js';

function FlagProbe() {
  const context = useSearchListContext();
  return (
    <>
      <output>{JSON.stringify({ resultsHidden: context.resultsHidden, search: context.search, hideResults: context.hideResults })}</output>
      <button type="button" onClick={context.toggleResultsHidden}>
        toggle
      </button>
      <button type="button" onClick={() => context.setResultsHidden(false)}>
        show
      </button>
    </>
  );
}

const state = () => JSON.parse(screen.getByRole('status').textContent!) as { resultsHidden: boolean; search: { resultsHidden: boolean }; hideResults: boolean };

describe('search context', () => {
  afterEach(cleanup);

  it('holds the results-hidden flag, which can be toggled or set, next to the hide-results option', () => {
    render(
      <SearchContextProvider hideResults i18n={{ viewing: 'Viewing {count} of {total}', loadMore: 'More' }}>
        <FlagProbe />
      </SearchContextProvider>,
    );
    expect(state()).toEqual({ resultsHidden: false, search: { resultsHidden: false }, hideResults: true });
    fireEvent.click(screen.getByRole('button', { name: 'toggle' }));
    expect(state().resultsHidden).toBe(true);
    expect(state().search.resultsHidden).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'show' }));
    expect(state().resultsHidden).toBe(false);
  });
});
