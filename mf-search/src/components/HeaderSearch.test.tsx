// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPageBus, type IslandContext } from 'contracts';
import { createSearchClient } from '../config/createSearchClient.js';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { HeaderSearch, searchPageUrl } from './HeaderSearch.js';

let server: SeededSearchServer;
vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  server = await startSeededSearchServer();
}, 30_000);
afterAll(async () => {
  cleanup();
  await server?.close();
});

describe('HeaderSearch', () => {
  it('suggests titles containing the query and goes to the search page with the chosen one', async () => {
    const config = server.pageConfig();
    const context: IslandContext = { bus: createPageBus(), config, getConsent: () => ({ insights: false, tracking: false }) };
    const navigate = vi.fn();
    render(<HeaderSearch setup={createSearchClient(config.search)} context={context} navigate={navigate} />);
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
});
