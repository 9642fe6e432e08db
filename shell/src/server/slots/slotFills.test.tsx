import { renderToStaticMarkup } from 'react-dom/server';
import type { SliceManifest } from '@khs/stack/registry';
import { describe, expect, it } from 'vitest';
import { examplePageConfig, SLOT_NAMES } from 'contracts';
import { readShellConfig } from '../config.js';
import { FIRST_VIEW_REMOTES, firstViewRemotesOf, Layout } from '../pages/Layout.js';
import { Slot, SlotFillsContext, SlotPageConfigContext } from '../pages/Slot.js';
import { readSlotFills, SITE_SLOT_FILLS } from './slotFills.js';

type Fill = NonNullable<NonNullable<SliceManifest['remote']>['slots']>[number];
const slice = (name: string, islands: string[], slots: Fill[]): SliceManifest => ({
  name,
  team: 'Team',
  description: 'A slice for this test.',
  env: [],
  remote: { port: 5001, manifestEnv: 'REMOTE_X_URL', islands, slots },
});
const ARTICLE = { articleId: 'a-1', title: 'An "article"', topics: ['x'] };

describe('slot fills from the slices manifests', () => {
  it('orders each slot by the declared order, then by island, and maps context fields to props', () => {
    const { fills, problems } = readSlotFills([
      slice('mf-b', ['Save'], [{ slot: 'article.header.actions', island: 'Save', order: 20, props: { id: 'articleId', label: 'title' }, className: 'b' }]),
      slice('mf-a', ['Share', 'Note'], [
        { slot: 'article.header.actions', island: 'Share', order: 10, hydrate: 'visible' },
        { slot: 'article.header.actions', island: 'Note', order: 20 },
      ]),
    ]);
    expect(problems).toEqual([]);
    expect(fills.get('article.header.actions')!.map((fill) => fill.island)).toEqual(['mf-a/Share', 'mf-a/Note', 'mf-b/Save']);
    const html = renderToStaticMarkup(
      <SlotFillsContext.Provider value={fills}>
        <Slot name="article.header.actions" context={ARTICLE} />
        <Slot name="article.after-body" context={ARTICLE} />
      </SlotFillsContext.Provider>,
    );
    expect(html).toBe(
      '<div class="island" data-island="mf-a/Share" data-props="{}" data-island-hydrate="visible"></div>' +
        '<div class="island" data-island="mf-a/Note" data-props="{}"></div>' +
        '<div class="island b" data-island="mf-b/Save" data-props="{&quot;id&quot;:&quot;a-1&quot;,&quot;label&quot;:&quot;An \\&quot;article\\&quot;&quot;}"></div>',
    );
  });

  it('refuses an unknown slot, an island the remote does not list and a context field the slot does not offer, naming file and field', () => {
    const { fills, problems } = readSlotFills([
      slice('mf-a', ['Share'], [
        { slot: 'article.sidebar', island: 'Share', order: 1 },
        { slot: 'teaser.actions', island: 'Missing', order: 1 },
        { slot: 'teaser.actions', island: 'Share', order: 1, props: { id: 'articleId', when: 'date' } },
      ]),
    ]);
    expect(problems).toEqual([
      `mf-a/slice.json: /remote/slots/0/slot "article.sidebar" is not a slot of the shell (${SLOT_NAMES.join(', ')})`,
      'mf-a/slice.json: /remote/slots/1/island "Missing" is not one of the remote\'s islands (Share)',
      'mf-a/slice.json: /remote/slots/2/props/when: the teaser.actions slot offers no context field "date" (articleId, title, topics)',
    ]);
    expect(fills.size).toBe(0);
  });

  it('refuses a placeholder naming a call or a text the page config does not have', () => {
    const { problems } = readSlotFills([
      slice('mf-a', ['Link'], [
        { slot: 'header.actions', island: 'Link', order: 1, placeholder: { link: { call: 'nowhere', text: 'watchlistLink' } } },
        { slot: 'header.actions', island: 'Link', order: 2, placeholder: { link: { call: 'watchlistPage', text: 'nothing' } } },
      ]),
    ]);
    expect(problems).toEqual([
      'mf-a/slice.json: /remote/slots/0/placeholder/link/call "nowhere" is not a call of contracts\' CallUrls',
      'mf-a/slice.json: /remote/slots/1/placeholder/link/text "nothing" is not a text of contracts\' I18nTexts',
    ]);
  });

  it("a fill's placeholder is a plain link from the page config, inside its island (what stays while its remote cannot render)", () => {
    const { fills, problems } = readSlotFills([
      slice('mf-a', ['Link'], [{ slot: 'header.actions', island: 'Link', order: 1, className: 'site-header__action', placeholder: { link: { call: 'watchlistPage', text: 'watchlistLink' } } }]),
    ]);
    expect(problems).toEqual([]);
    const config = examplePageConfig();
    const html = renderToStaticMarkup(
      <SlotFillsContext.Provider value={fills}>
        <SlotPageConfigContext.Provider value={config}>
          <Slot name="header.actions" context={{}} />
        </SlotPageConfigContext.Provider>
      </SlotFillsContext.Provider>,
    );
    expect(html).toBe(`<div class="island site-header__action" data-island="mf-a/Link" data-props="{}"><a href="${config.calls.watchlistPage}">${config.i18n.watchlistLink}</a></div>`);
  });

  it("a slot's own content: alone when nobody fills it, else the first island's placeholder", () => {
    const { fills } = readSlotFills([slice('mf-a', ['Box', 'More'], [{ slot: 'header.search', island: 'Box', order: 1 }, { slot: 'header.search', island: 'More', order: 2 }])]);
    const slot = (given: typeof fills) =>
      renderToStaticMarkup(
        <SlotFillsContext.Provider value={given}>
          <Slot name="header.search" context={{ query: 'q' }}>
            <form>plain</form>
          </Slot>
        </SlotFillsContext.Provider>,
      );
    expect(slot(new Map())).toBe('<form>plain</form>');
    expect(slot(fills)).toBe('<div class="island" data-island="mf-a/Box" data-props="{}"><form>plain</form></div><div class="island" data-island="mf-a/More" data-props="{}"></div>');
  });

  it('a slot nobody fills renders nothing', () => {
    expect(renderToStaticMarkup(<SlotFillsContext.Provider value={new Map()}><Slot name="page.end" context={{}} /></SlotFillsContext.Provider>)).toBe('');
    const layout = renderToStaticMarkup(
      <SlotFillsContext.Provider value={new Map()}>
        <Layout title="t" config={examplePageConfig()} runtimeUrl="/r.js">
          <p>body</p>
        </Layout>
      </SlotFillsContext.Provider>,
    );
    // The site's plain search form alone, no island; nothing after it in the header, nothing in the footer after its links.
    expect(layout).toMatch(/<\/nav><form role="search"[^]*<\/form><\/div><\/header>/);
    expect(layout).not.toContain('data-island');
    expect(layout).toMatch(/Cookie settings<\/a><\/p><\/footer>/);
    expect(layout).not.toContain('rel="preload"');
  });

  it("the layout preloads the remotes of the header's islands that hydrate at once", () => {
    const { fills } = readSlotFills([
      slice('mf-a', ['Now'], [{ slot: 'header.actions', island: 'Now', order: 1 }]),
      slice('mf-b', ['Later'], [{ slot: 'header.actions', island: 'Later', order: 2, hydrate: 'idle' }]),
      slice('mf-c', ['Foot'], [{ slot: 'footer.links', island: 'Foot', order: 1 }]),
    ]);
    expect(firstViewRemotesOf(fills)).toEqual(['mf-a']);
  });

  it("the site's manifests are sound: the shell starts with them", () => {
    expect(() => readShellConfig({})).not.toThrow();
    expect(SITE_SLOT_FILLS.get('article.header.actions')!.map((fill) => fill.island)).toEqual(['mf-widgets/ArticleContentsTrigger', 'mf-watchlist/WatchlistButton']);
    expect(SITE_SLOT_FILLS.get('article.after-body')!.map((fill) => fill.island)).toEqual(['mf-widgets/ArticleWidgets', 'mf-survey/Survey']);
    expect(SITE_SLOT_FILLS.get('header.actions')!.map((fill) => fill.island)).toEqual(['mf-watchlist/WatchlistLink']);
    expect(SITE_SLOT_FILLS.get('header.search')!.map((fill) => fill.island)).toEqual(['mf-search/HeaderSearch']);
    expect(FIRST_VIEW_REMOTES).toEqual(['mf-watchlist']);
  });
});
