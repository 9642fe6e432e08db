import { renderToStaticMarkup } from 'react-dom/server';
import type { FastifyInstance } from 'fastify';
import type { SliceManifest } from '@khs/stack/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlotFillsContext } from '../pages/Slot.js';
import { readSlotFills } from '../slots/slotFills.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { SlicePage } from '../pages/SlicePage.js';
import { readSlicePages, SITE_SLICE_PAGES, slicePageContext } from './slicePages.js';

/** A slice of a test owning one page. */
function sliceWith(name: string, pages: NonNullable<NonNullable<SliceManifest['remote']>['pages']>, slots: NonNullable<NonNullable<SliceManifest['remote']>['slots']> = []): SliceManifest {
  return { name, team: 'Test team', description: 'A slice of a test.', env: [], remote: { port: 4390, manifestEnv: 'REMOTE_X_URL', islands: ['Screen', 'Extra'], slots, pages } };
}

describe('pages the slices declare (remote.pages)', () => {
  it("are the site's search and watchlist pages, each with its slot, its remotes to preload and its query", () => {
    expect(SITE_SLICE_PAGES.map((page) => [page.slice, page.path, page.slot, page.firstViewRemotes])).toEqual([
      ['mf-search', '/search', 'search.main', ['mf-search']],
      ['mf-watchlist', '/watchlist', 'watchlist.main', ['mf-watchlist']],
    ]);
    const search = SITE_SLICE_PAGES[0]!;
    expect(slicePageContext(search, { q: 'x'.repeat(600) })).toEqual({ path: '/search', query: 'x'.repeat(512) });
    expect(slicePageContext(search, { q: ['a', 'b'] })).toEqual({ path: '/search', query: '' });
    expect(slicePageContext(SITE_SLICE_PAGES[1]!, { q: 'ignored' })).toEqual({ path: '/watchlist', query: '' });
  });

  it('refuses an unknown slot, a slot that is not a page\'s, a path another slice has and a query form without a query parameter, naming file and field', () => {
    const page = { path: '/x', title: 'X', heading: 'X', slot: 'search.main', robots: 'noindex' } as const;
    const { pages, problems } = readSlicePages(
      [
        sliceWith('mf-a', [
          { ...page, slot: 'nowhere.main' },
          { ...page, slot: 'article.after-body' },
          { ...page, fallback: { queryForm: { label: 'Go', formLabel: 'Find' } } },
          page,
        ]),
        sliceWith('mf-b', [page]),
      ],
      new Map(),
    );
    expect(problems).toEqual([
      'mf-a/slice.json: /remote/pages/0/slot "nowhere.main" is not a slot of the shell',
      'mf-a/slice.json: /remote/pages/1/slot "article.after-body" is not a page\'s slot (it offers articleId, title, topics, a page\'s offers path, query)',
      'mf-a/slice.json: /remote/pages/2/fallback/queryForm needs /queryParam (the form\'s field)',
      'mf-b/slice.json: /remote/pages/0/path "/x" is already mf-a\'s page',
    ]);
    expect(pages.map((declared) => declared.slice)).toEqual(['mf-a']);
  });

  it('renders a heading and the slot, the first island holding the declared fallback; islands hydrating later are not preloaded', () => {
    const slice = sliceWith(
      'mf-x',
      [{ path: '/things', title: 'Things', heading: 'Your things', slot: 'watchlist.main', robots: 'noindex', queryParam: 'q', fallback: { text: 'Turn on scripts.', onlyWithoutScripts: true, queryForm: { label: 'Find', formLabel: 'Thing search' } } }],
      [
        { slot: 'watchlist.main', island: 'Screen', order: 1, props: { where: 'path', text: 'query' } },
        { slot: 'watchlist.main', island: 'Extra', order: 2, hydrate: 'idle' },
      ],
    );
    const fills = readSlotFills([slice]).fills;
    const [page] = readSlicePages([slice], fills).pages;
    expect(page!.firstViewRemotes).toEqual(['mf-x']);
    const html = renderToStaticMarkup(
      <SlotFillsContext.Provider value={fills}>
        <SlicePage page={page!} context={{ path: '/things', query: 'cups' }} />
      </SlotFillsContext.Provider>,
    );
    expect(html).toBe(
      '<section class="slice-page" aria-labelledby="slice-page-title"><h1 id="slice-page-title">Your things</h1>' +
        '<div class="island" data-island="mf-x/Screen" data-props="{&quot;where&quot;:&quot;/things&quot;,&quot;text&quot;:&quot;cups&quot;}">' +
        '<noscript><p>Turn on scripts.</p></noscript>' +
        '<form role="search" aria-label="Thing search" class="slice-page__query-form" action="/things" method="get"><label for="slice-page-query">Find</label>' +
        '<input id="slice-page-query" type="search" maxLength="512" name="q" value="cups"/><button type="submit">Find</button></form></div>' +
        '<div class="island" data-island="mf-x/Extra" data-props="{}" data-island-hydrate="idle"></div></section>',
    );
  });
});

describe("the site's slice pages as the shell serves them", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp());
  });
  afterAll(() => app.close());

  it('/search: its title and heading, the search list island over a plain search form, its remote preloaded, shared caches may keep it', async () => {
    const response = await app.inject('/search?q=leadership');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('<title>Search · KHS Competence</title>');
    expect(html).toContain('<body class="page-search">');
    expect(html).toContain('<h1 id="slice-page-title">Search articles</h1>');
    expect(html).toContain('<div class="island" data-island="mf-search/SearchList" data-props="{}">');
    expect(html).toContain('<form role="search" aria-label="Article search" class="slice-page__query-form" action="/search" method="get">');
    expect(html).toContain('<input id="slice-page-query" type="search" maxLength="512" name="q" value="leadership"/>');
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin="anonymous" href="http://127.0.0.1:4310/mf-manifest.json"/>');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('<meta name="description" content="Search the KHS Competence articles by words, topics and reading time."/>');
    expect(response.headers.etag).toBeDefined();
  });

  it('/watchlist: its title and heading, the watchlist screen island with a sentence for browsers without scripts, noindex, not for shared caches', async () => {
    const response = await app.inject('/watchlist');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('<title>Your watchlist · KHS Competence</title>');
    expect(html).toContain('<h1 id="slice-page-title">Your watchlist</h1>');
    expect(html).toContain('<div class="island" data-island="mf-watchlist/WatchlistScreen" data-props="{}"><noscript><p>Your watchlist is kept in this browser. Please turn on JavaScript to see it.</p></noscript></div>');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain('rel="canonical"');
    expect(response.headers.etag).toBeUndefined();
  });
});
