// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS,
  AUTOCOMPLETE_STALL_THRESHOLD_MS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_INPUT_MAX_LENGTH,
} from 'contracts';
import { SearchCombobox } from './SearchCombobox.js';
import type { Suggestion, SuggestionAnswer, SuggestionSource } from './suggestions.js';
import { useAutocomplete, type UseAutocompleteOptions } from './useAutocomplete.js';

const TITLES = ['Leading remote teams', 'Self-leadership basics', 'Feedback for leaders'];

function Harness(props: Omit<UseAutocompleteOptions, 'onSelect'> & { onSelect?: UseAutocompleteOptions['onSelect'] }) {
  const autocomplete = useAutocomplete({ onSelect: () => {}, ...props });
  return (
    <>
      <SearchCombobox autocomplete={autocomplete} label="Search" />
      <button type="button">outside</button>
    </>
  );
}

/** A source answering after `delayMs` with every title as a suggestion. */
function delayedSource(delayMs = 50): SuggestionSource & { calls: string[] } {
  const calls: string[] = [];
  const source = (query: string) => {
    calls.push(query);
    return new Promise<SuggestionAnswer>((resolve) =>
      setTimeout(() => resolve({ suggestions: TITLES.map((title, i) => ({ objectID: `a${i}`, title })), tags: [] }), delayMs),
    );
  };
  return Object.assign(source, { calls });
}

const input = () => screen.getByRole('combobox') as HTMLInputElement;
const options = () => screen.queryAllByRole('option');
const activeOption = () => {
  const id = input().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)?.textContent : undefined;
};
const state = () => input().closest('[data-status]')?.getAttribute('data-status');
const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));
const key = (name: string) => fireEvent.keyDown(input(), { key: name });

async function typeAndOpen(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  await advance(SEARCH_DEBOUNCE_MS + 60);
}

describe('autocomplete combobox', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('debounces the query, goes loading then stalled, then opens with the matches highlighted', async () => {
    const source = delayedSource(AUTOCOMPLETE_STALL_THRESHOLD_MS + 100);
    const onQuery = vi.fn();
    render(<Harness source={source} onQuery={onQuery} />);
    expect(state()).toBe('idle');
    fireEvent.change(input(), { target: { value: 'lea' } });
    fireEvent.change(input(), { target: { value: 'lead' } });
    await advance(SEARCH_DEBOUNCE_MS - 1);
    expect(source.calls).toEqual([]);
    await advance(1);
    expect(onQuery.mock.calls).toEqual([['lead']]);
    expect(source.calls).toEqual(['lead']);
    expect(state()).toBe('loading');
    await advance(AUTOCOMPLETE_STALL_THRESHOLD_MS);
    expect(state()).toBe('stalled');
    await advance(100);
    expect(state()).toBe('open');
    expect(input().getAttribute('aria-expanded')).toBe('true');
    // "Feedback for leaders" and "Leading…" and "Self-leadership…" all contain "lead".
    expect(options().map((o) => o.textContent)).toEqual(TITLES);
    expect(Array.from(screen.getByRole('listbox').querySelectorAll('mark')).map((m) => m.textContent)).toEqual(['Lead', 'lead', 'lead']);
  });

  it('moves the active suggestion with wraparound and selects it with Enter', async () => {
    const onSelect = vi.fn<(s: Suggestion, position: number) => void>();
    render(<Harness source={delayedSource()} onSelect={onSelect} />);
    await typeAndOpen('lead');
    key('ArrowDown');
    expect(activeOption()).toBe(TITLES[0]);
    key('ArrowUp');
    expect(activeOption()).toBe(TITLES[2]);
    key('ArrowDown');
    expect(activeOption()).toBe(TITLES[0]);
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowDown');
    expect(activeOption()).toBe(TITLES[0]);
    key('ArrowDown');
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');
    key('Enter');
    expect(onSelect).toHaveBeenCalledWith({ objectID: 'a1', title: TITLES[1] }, 2);
    expect(input().value).toBe(TITLES[1]);
    expect(state()).toBe('closed');
  });

  it('closes on the first Escape and clears the query on the second', async () => {
    const onQuery = vi.fn();
    render(<Harness source={delayedSource()} onQuery={onQuery} />);
    await typeAndOpen('lead');
    key('Escape');
    expect(state()).toBe('closed');
    expect(input().value).toBe('lead');
    key('Escape');
    expect(input().value).toBe('');
    expect(onQuery).toHaveBeenLastCalledWith('');
    expect(state()).toBe('idle');
  });

  it('closes on Tab and on a click outside', async () => {
    render(<Harness source={delayedSource()} />);
    await typeAndOpen('lead');
    key('Tab');
    expect(state()).toBe('closed');
    key('ArrowDown');
    expect(state()).toBe('open');
    fireEvent.pointerDown(screen.getByRole('button', { name: 'outside' }));
    expect(state()).toBe('closed');
  });

  it(`reports the items view once, ${AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS} ms after the suggestions settled`, async () => {
    const onItemsViewed = vi.fn();
    render(<Harness source={delayedSource()} onItemsViewed={onItemsViewed} />);
    await typeAndOpen('lead');
    await advance(AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS - 100);
    expect(onItemsViewed).not.toHaveBeenCalled();
    await advance(100);
    expect(onItemsViewed).toHaveBeenCalledTimes(1);
    expect(onItemsViewed.mock.calls[0]![0]).toHaveLength(3);
  });

  it(`cuts the query to ${SEARCH_INPUT_MAX_LENGTH} characters`, async () => {
    const onQuery = vi.fn();
    render(<Harness source={delayedSource()} onQuery={onQuery} />);
    expect(input().maxLength).toBe(SEARCH_INPUT_MAX_LENGTH);
    fireEvent.change(input(), { target: { value: 'x'.repeat(600) } });
    expect(input().value).toHaveLength(SEARCH_INPUT_MAX_LENGTH);
    await advance(SEARCH_DEBOUNCE_MS);
    expect(onQuery.mock.calls[0]![0]).toHaveLength(SEARCH_INPUT_MAX_LENGTH);
  });

  it('stays closed with nothing to suggest, and logs a failed suggestion request', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Harness source={() => Promise.reject(new Error('down'))} />);
    await typeAndOpen('lead');
    expect(state()).toBe('closed');
    expect(input().getAttribute('aria-expanded')).toBe('false');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
