import { renderToStaticMarkup } from 'react-dom/server';
import type { SliceManifest } from '@khs/stack/registry';
import { describe, expect, it } from 'vitest';
import { SLOT_NAMES } from 'contracts';
import { readShellConfig } from '../config.js';
import { Slot, SlotFillsContext } from '../pages/Slot.js';
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

  it('a slot nobody fills renders nothing', () => {
    expect(renderToStaticMarkup(<SlotFillsContext.Provider value={new Map()}><Slot name="page.end" context={{}} /></SlotFillsContext.Provider>)).toBe('');
  });

  it("the site's manifests are sound: the shell starts with them", () => {
    expect(() => readShellConfig({})).not.toThrow();
    expect(SITE_SLOT_FILLS.get('article.header.actions')!.map((fill) => fill.island)).toEqual(['mf-widgets/ArticleContentsTrigger', 'mf-watchlist/WatchlistButton']);
  });
});
