// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COPY_CONFIRMATION_MS,
  createPageBus,
  examplePageConfig,
  WATCHLIST_DESIGN_MODE_DELAY_MS,
  WATCHLIST_PDF_FILE_NAME,
  WATCHLIST_STORAGE_KEY,
  type PageBus,
  type SiteEvents,
} from 'contracts';
import type { WatchlistServices } from '../../api/watchlistServices.js';
import { fakeWatchlistServer, testTeaser } from './fakeWatchlistServer.testing.js';
import { WatchlistScreen } from './WatchlistScreen.js';
import { connectWatchlist } from '../../connectors/connectWatchlist.js';

const config = examplePageConfig();
const i18n = config.i18n;

function saveLocally(articles: Record<string, { title: string }>) {
  localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles }));
}

function setup(options: { designMode?: boolean; related?: ReturnType<typeof testTeaser>[] } = {}) {
  const server = fakeWatchlistServer({ related: options.related ?? [] });
  const bus: PageBus = createPageBus();
  const saved: Array<{ blob: Blob; fileName: string }> = [];
  const clipboard: string[] = [];
  const services: WatchlistServices & { clipboardFails: boolean } = {
    fetch: server.fetch,
    saveFile: (blob, fileName) => saved.push({ blob, fileName }),
    clipboardFails: false,
    async writeClipboard(text) {
      if (services.clipboardFails) throw new DOMException('denied', 'NotAllowedError');
      clipboard.push(text);
    },
    logger: { error: vi.fn() },
  };
  const view = render(<WatchlistScreen bus={bus} config={config} services={services} designMode={options.designMode ?? false} />);
  return { server, bus, services, saved, clipboard, view };
}

const flush = () => act(async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
});

describe('WatchlistScreen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows a busy loading indicator, then the server-resolved teasers', async () => {
    saveLocally({ a1: { title: 'Feedback' }, b2: { title: 'Negotiation' } });
    const { server, view } = setup({ related: [testTeaser('r1', 'Related one')] });
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(i18n.loading);
    expect(view.container.querySelector('.khs-watchlist-screen')?.getAttribute('aria-busy')).toBe('true');

    expect((await screen.findByRole('link', { name: 'Feedback' })).getAttribute('href')).toBe('/articles/a1');
    expect(screen.getByRole('link', { name: 'Negotiation' }).getAttribute('href')).toBe('/articles/b2');
    expect(view.container.querySelector('.khs-watchlist-screen')?.getAttribute('aria-busy')).toBe('false');
    const related = screen.getByRole('region', { name: i18n.watchlistRelated });
    expect(within(related).getByRole('link', { name: 'Related one' }).getAttribute('href')).toBe('/articles/r1');
    expect((screen.getByLabelText(i18n.watchlistShare) as HTMLInputElement).value).toBe('http://site.test/watchlist/shared/share-123');

    const [post] = server.posts('/api/watchlist');
    expect(post?.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': 'token-1' });
    expect(post?.body).toEqual({ storedWatchlist: { articles: { a1: { title: 'Feedback' }, b2: { title: 'Negotiation' } } } });
    expect(server.requests[0]?.url).toBe('/actions/blitz/csrf/token');
  });

  it('shows the empty state with a bookmark icon when nothing is saved', async () => {
    const { view } = setup();
    expect((await screen.findByText(i18n.watchlistEmpty)).closest('.khs-watchlist-screen')?.getAttribute('aria-busy')).toBe('false');
    expect(view.container.querySelector('.khs-watchlist-screen__empty svg')).not.toBeNull();
    expect(screen.queryByRole('button', { name: i18n.watchlistDownload })).toBeNull();
  });

  it.each([
    ['a 500 answer', () => new Response('boom', { status: 500 })],
    ['an { error } answer', () => Response.json({ error: 'nope' })],
    ['an answer of the wrong shape', () => Response.json({ storedWatchlist: { articles: [] } })],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('logs %s and shows the screen loaded and empty', async (_label, answer) => {
    saveLocally({ a1: { title: 'Feedback' } });
    const server = fakeWatchlistServer();
    server.answerWatchlist(answer);
    const logger = { error: vi.fn() };
    render(
      <WatchlistScreen
        bus={createPageBus()}
        config={config}
        services={{ fetch: server.fetch, saveFile: () => {}, writeClipboard: async () => {}, logger }}
      />,
    );
    expect((await screen.findByText(i18n.watchlistEmpty)).closest('.khs-watchlist-screen')?.getAttribute('aria-busy')).toBe('false');
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('link', { name: 'Feedback' })).toBeNull();
  });

  it('in design mode shows dummy data after the design-mode delay when there is no server', async () => {
    vi.useFakeTimers();
    const server = fakeWatchlistServer();
    server.answerWatchlist(() => new Response('<html>dev server</html>', { status: 404 }));
    const logger = { error: vi.fn() };
    render(
      <WatchlistScreen
        bus={createPageBus()}
        config={config}
        designMode
        services={{ fetch: server.fetch, saveFile: () => {}, writeClipboard: async () => {}, logger }}
      />,
    );
    await flush();
    expect(logger.error).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(WATCHLIST_DESIGN_MODE_DELAY_MS - 1));
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(i18n.loading);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('link', { name: 'Giving feedback that lands' }).getAttribute('href')).toBe('#feedback-that-lands');
  });

  it('removes an article: local storage, bus events, the item leaves at once, then a reload', async () => {
    saveLocally({ a1: { title: 'Feedback' }, b2: { title: 'Negotiation' } });
    const { server, bus } = setup();
    const events: string[] = [];
    bus.on('watchlist-updated', (event: SiteEvents['watchlist-updated']) => events.push(`updated:${event.count}`));
    bus.on('watchlist-added', (event: SiteEvents['watchlist-added']) => events.push(`added:${event.id}:${event.added}`));
    await screen.findByRole('link', { name: 'Feedback' });
    server.answerWatchlist(() => new Promise<Response>(() => {})); // the reload stays pending

    fireEvent.click(screen.getByRole('button', { name: `${i18n.watchlistRemove}: Feedback` }));

    expect(screen.queryByRole('link', { name: 'Feedback' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Negotiation' }).getAttribute('href')).toBe('/articles/b2');
    expect(JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY)!)).toEqual({ articles: { b2: { title: 'Negotiation' } } });
    expect(events).toEqual(['updated:1', 'added:a1:false']);
    await flush();
    expect(server.posts('/api/watchlist').at(-1)?.body).toEqual({ storedWatchlist: { articles: { b2: { title: 'Negotiation' } } } });
    // One reload for the change (the screen's own toggle is heard once), with the page's one token.
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /actions/blitz/csrf/token', 'POST /api/watchlist', 'POST /api/watchlist']);
  });

  it('reloads when an article is added elsewhere on the page', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { bus } = setup();
    await screen.findByRole('link', { name: 'Feedback' });
    // A watchlist button elsewhere on the page toggles through the same connector.
    act(() => void connectWatchlist(bus).toggle({ id: 'c3', title: 'Coaching' }, { source: 'mf-watchlist/WatchlistButton' }));
    expect((await screen.findByRole('link', { name: 'Coaching' })).getAttribute('href')).toBe('/articles/c3');
  });

  it('follows a removal made in another tab', async () => {
    saveLocally({ a1: { title: 'Feedback' }, b2: { title: 'Negotiation' } });
    const { server } = setup();
    await screen.findByRole('link', { name: 'Feedback' });
    server.answerWatchlist(() => new Promise<Response>(() => {}));
    saveLocally({ b2: { title: 'Negotiation' } });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: WATCHLIST_STORAGE_KEY }));
    });
    expect(screen.queryByRole('link', { name: 'Feedback' })).toBeNull();
    await flush();
    expect(server.posts('/api/watchlist')).toHaveLength(2);
  });

  it('ignores an older answer that arrives after a newer one', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { server, bus } = setup();
    await screen.findByRole('link', { name: 'Feedback' });
    let releaseSlow: (response: Response) => void = () => {};
    server.answerWatchlist(() => new Promise<Response>((resolve) => (releaseSlow = resolve)));
    act(() => void connectWatchlist(bus).toggle({ id: 'x', title: 'X' }, { source: 'test' }));
    await flush();
    server.answerWatchlist(() => Response.json({ storedWatchlist: { articles: { n: testTeaser('n', 'Newest') }, relatedArticles: [], sharingUrl: 'u' } }));
    act(() => void connectWatchlist(bus).toggle({ id: 'y', title: 'Y' }, { source: 'test' }));
    expect((await screen.findByRole('link', { name: 'Newest' })).getAttribute('href')).toBe('/articles/n');
    await act(async () => releaseSlow(Response.json({ storedWatchlist: { articles: { o: testTeaser('o', 'Older') }, relatedArticles: [], sharingUrl: 'u' } })));
    await flush();
    expect(screen.queryByRole('link', { name: 'Older' })).toBeNull();
    expect(screen.getAllByRole('link', { name: /Newest|Older/ }).map((link) => link.getAttribute('href'))).toEqual(['/articles/n']);
  });

  it('adds a related article to the watchlist', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    setup({ related: [testTeaser('r1', 'Related one')] });
    fireEvent.click(await screen.findByRole('button', { name: `${i18n.watchlistAdd}: Related one` }));
    expect(JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY)!).articles).toHaveProperty('r1', { title: 'Related one' });
    expect((await screen.findByRole('button', { name: `${i18n.watchlistRemove}: Related one` })).getAttribute('aria-pressed')).toBe('true');
  });

  it('says so and keeps the list when local storage refuses a removal', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { services } = setup();
    await screen.findByRole('link', { name: 'Feedback' });
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    try {
      fireEvent.click(screen.getByRole('button', { name: `${i18n.watchlistRemove}: Feedback` }));
    } finally {
      setItem.mockRestore();
    }
    expect(screen.getByText(i18n.watchlistStorageFailed).getAttribute('role')).toBe('status');
    expect(screen.getByRole('link', { name: 'Feedback' }).getAttribute('href')).toBe('/articles/a1');
    expect(services.logger.error).toHaveBeenCalled();
  });

  it('copies the sharing link and confirms for exactly the confirmation time', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { clipboard } = setup();
    const copy = await screen.findByRole('button', { name: i18n.watchlistCopy });
    vi.useFakeTimers();
    fireEvent.click(copy);
    await flush();
    expect(clipboard).toEqual(['http://site.test/watchlist/shared/share-123']);
    const confirmation = screen.getByText(i18n.watchlistCopied);
    expect(confirmation.getAttribute('aria-live')).toBe('polite');
    await act(() => vi.advanceTimersByTimeAsync(COPY_CONFIRMATION_MS - 1));
    expect(screen.queryByText(i18n.watchlistCopied)).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByText(i18n.watchlistCopied)).toBeNull();
  });

  it('only logs a failed copy', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { services } = setup();
    services.clipboardFails = true;
    fireEvent.click(await screen.findByRole('button', { name: i18n.watchlistCopy }));
    await flush();
    expect(services.logger.error).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(i18n.watchlistCopied)).toBeNull();
  });

  it('downloads the PDF: indicator while downloading, saved under the PDF file name, then idle', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { server, saved } = setup();
    const button = await screen.findByRole('button', { name: i18n.watchlistDownload });
    let release: (response: Response) => void = () => {};
    server.answerDownload(() => new Promise<Response>((resolve) => (release = resolve)));
    fireEvent.click(button);
    await flush();
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.closest('[aria-busy]')?.getAttribute('aria-busy')).toBe('true');
    const post = server.posts('/api/watchlist/pdf')[0];
    expect(post?.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': expect.any(String) });
    expect(post?.body).toEqual({ storedWatchlist: { articles: { a1: { title: 'Feedback' } } } });

    await act(async () => release(new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })));
    await flush();
    expect(saved.map((file) => file.fileName)).toEqual([WATCHLIST_PDF_FILE_NAME]);
    expect(await saved[0]!.blob.text()).toBe('%PDF-1.7');
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.closest('[aria-busy]')?.getAttribute('aria-busy')).toBe('false');
  });

  it('a non-OK download raises "Network response error", saves nothing and stops the indicator', async () => {
    saveLocally({ a1: { title: 'Feedback' } });
    const { server, saved, services } = setup();
    server.answerDownload(() => new Response('boom', { status: 500 }));
    const button = await screen.findByRole('button', { name: i18n.watchlistDownload });
    fireEvent.click(button);
    await flush();
    expect(saved).toEqual([]);
    expect(button.hasAttribute('disabled')).toBe(false);
    const [, error] = vi.mocked(services.logger.error).mock.calls[0] ?? [];
    expect((error as Error).message).toBe('Network response error');
  });
});
