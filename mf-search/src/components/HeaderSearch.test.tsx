// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTOCOMPLETE_STALL_THRESHOLD_MS, createPageBus, type IslandContext } from 'contracts';
import { loadHeaderSuggestionSource } from '../autocomplete/loadHeaderSuggestionSource.js';
import type { SuggestionSource } from '../autocomplete/suggestions.js';
import { readSearchServerSettings } from '../config/searchServerSettings.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { HeaderSearch, searchPageUrl } from './HeaderSearch.js';

let server: SeededSearchServer;
vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  server = await startSeededSearchServer();
}, 30_000);
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function pageContext(): IslandContext {
  return { bus: createPageBus(), config: server.pageConfig(), getConsent: () => ({ insights: false, tracking: false }) };
}

/** The real loader behind a gate the test opens (a slow network), counting its calls. */
function gatedLoader(context: IslandContext) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const load = vi.fn(async (): Promise<SuggestionSource> => {
    await gate;
    return loadHeaderSuggestionSource(readSearchServerSettings(context.config.search));
  });
  return { load, open };
}

describe('HeaderSearch', () => {
  it('suggests titles containing the query and goes to the search page with the chosen one', async () => {
    const context = pageContext();
    const settings = readSearchServerSettings(context.config.search);
    const navigate = vi.fn();
    render(<HeaderSearch loadSuggestions={() => loadHeaderSuggestionSource(settings)} indexName={settings.indexName} context={context} navigate={navigate} />);
    const box = screen.getByRole('combobox');
    const form = box.closest('form')!;
    expect(form.getAttribute('action')).toBe('/search');
    expect(form.getAttribute('method')).toBe('get');
    expect(box.getAttribute('name')).toBe('q');

    fireEvent.change(box, { target: { value: 'feedback' } });
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('true'), { timeout: 5000 });
    const titles = screen.getAllByRole('option').map((option) => option.textContent!);
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(title.toLowerCase()).toContain('feedback');

    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(navigate).toHaveBeenCalledWith(searchPageUrl('/search', titles[0]!));
    expect(searchPageUrl('/search', 'a b&c')).toBe('/search?q=a+b%26c');
  });

  it('loads the search client only on the first interaction, once, and searches what was typed while it loaded', async () => {
    const context = pageContext();
    const { load, open } = gatedLoader(context);
    render(<HeaderSearch loadSuggestions={load} indexName="articles" context={context} />);
    const box = screen.getByRole('combobox');
    const wrapper = box.closest('[data-status]')!;
    expect(load).not.toHaveBeenCalled();

    fireEvent.pointerEnter(box.closest('form')!);
    act(() => box.focus());
    expect(load).toHaveBeenCalledTimes(1);
    for (const typed of ['f', 'fe', 'fee', 'feed', 'feedb', 'feedba', 'feedbac', 'feedback']) fireEvent.change(box, { target: { value: typed } });
    expect(box).toHaveProperty('value', 'feedback');
    // The first query waits for the code: loading, then stalled past the threshold.
    await waitFor(() => expect(wrapper.getAttribute('data-status')).toBe('loading'));
    await new Promise((resolve) => setTimeout(resolve, AUTOCOMPLETE_STALL_THRESHOLD_MS + 50));
    expect(wrapper.getAttribute('data-status')).toBe('stalled');
    expect(box.getAttribute('aria-busy')).toBe('true');

    open();
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('true'), { timeout: 5000 });
    expect(box).toHaveProperty('value', 'feedback');
    for (const option of screen.getAllByRole('option')) expect(option.textContent!.toLowerCase()).toContain('feedback');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed load closes the panel and is retried by the next query', async () => {
    const context = pageContext();
    const settings = readSearchServerSettings(context.config.search);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<SuggestionSource>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockImplementation(() => loadHeaderSuggestionSource(settings));
    render(<HeaderSearch loadSuggestions={load} indexName={settings.indexName} context={context} />);
    const box = screen.getByRole('combobox');
    const wrapper = box.closest('[data-status]')!;
    fireEvent.change(box, { target: { value: 'coaching' } });
    await waitFor(() => expect(wrapper.getAttribute('data-status')).toBe('closed'));
    expect(error).toHaveBeenCalled();

    fireEvent.change(box, { target: { value: 'coach' } });
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('true'), { timeout: 5000 });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
