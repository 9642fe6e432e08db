import { describe, expect, it } from 'vitest';
import { examplePageConfig, type IslandContentReader, type IslandServerContext, type IslandServerModule, type PageConfig } from 'contracts';
import type { SliceManifest } from '@khs/stack/registry';
import { renderPageWithIslands, type IslandTiming } from '../federation/islandCollector.js';
import type { ServerFederation } from '../federation/serverFederation.js';
import { ServerIslands } from '../federation/serverIslands.js';
import { fakeFederation } from '../testing/fakeFederation.js';
import { Slot, SlotFillsContext } from '../pages/Slot.js';
import { readSlotFills } from './slotFills.js';

type Fill = NonNullable<NonNullable<SliceManifest['remote']>['slots']>[number];
const slice = (name: string, islands: string[], slots: Fill[]): SliceManifest => ({
  name,
  team: 'Team',
  description: 'A slice for this test.',
  env: [],
  remote: { port: 5001, manifestEnv: 'REMOTE_X_URL', islands, slots },
});

const config: PageConfig = { ...examplePageConfig(), remotes: [{ name: 'mf-a', entry: 'https://a.test/mf-manifest.json' }, { name: 'mf-b', entry: 'https://b.test/mf-manifest.json' }] };
const ARTICLE = { articleId: 'a-1', title: 'One', topics: ['x'] };
const content: IslandContentReader = {
  article: (id) => (id === 'a-1' ? ({ id, title: 'One', body: 'secret text', poll: 'p-1' } as never) : undefined),
  image: () => undefined,
};

/** A federation whose remotes' server modules are the given objects (one live build each). */
function federationOf(modules: Record<string, Partial<IslandServerModule>>): ServerFederation {
  return fakeFederation((remote, module) => modules[`${remote}/${module}`]);
}

describe("islands read what they need beyond their slot's context themselves (serverProps)", () => {
  const fills = readSlotFills([
    slice('mf-a', ['Body'], [{ slot: 'article.after-body', island: 'Body', order: 10, props: { articleId: 'articleId' } }]),
    slice('mf-b', ['Poll'], [{ slot: 'article.after-body', island: 'Poll', order: 20, props: { articleId: 'articleId' }, hydrate: 'visible' }]),
  ]).fills;
  const page = (
    <html>
      <head />
      <body>
        <SlotFillsContext.Provider value={fills}>
          <Slot name="article.after-body" context={ARTICLE} />
        </SlotFillsContext.Provider>
      </body>
    </html>
  );
  const seen: Array<{ island: string; props: unknown; content?: IslandContentReader; url?: string }> = [];
  const render = (island: string) => async (props: Record<string, unknown>) => {
    seen.push({ island, props });
    return { html: `<p>${island}: ${String(props.text ?? props.question)}</p>`, state: { rendered: island } };
  };
  const hookOf =
    (island: string, answer: (article: Record<string, unknown> | undefined) => Record<string, unknown> | null) =>
    (props: Record<string, unknown>, context: IslandServerContext) => {
      seen.push({ island: `${island} hook`, props, ...(context.content ? { content: context.content } : {}), url: context.url });
      return answer(context.content?.article(String(props.articleId)) as Record<string, unknown> | undefined);
    };

  it("hands the hook the slot's props and the page's content; its answer reaches the render only, never the page", async () => {
    seen.length = 0;
    const islands = new ServerIslands({
      federation: federationOf({
        'mf-a/Body': { islandApiVersion: 2, serverProps: hookOf('mf-a/Body', (article) => ({ text: article?.body })), render: render('mf-a/Body') },
        'mf-b/Poll': { islandApiVersion: 2, serverProps: hookOf('mf-b/Poll', (article) => ({ question: `poll ${String(article?.poll)}` })), render: render('mf-b/Poll') },
      }),
      budgetMs: 5000,
    });
    const html = await renderPageWithIslands(page, islands, { config, url: '/articles/a-1', content });
    expect(seen.filter((entry) => entry.island.endsWith('hook')).map(({ island, props, content: given, url }) => ({ island, props, given: given === content, url }))).toEqual([
      { island: 'mf-a/Body hook', props: { articleId: 'a-1' }, given: true, url: '/articles/a-1' },
      { island: 'mf-b/Poll hook', props: { articleId: 'a-1' }, given: true, url: '/articles/a-1' },
    ]);
    expect(seen.filter((entry) => !entry.island.endsWith('hook')).map(({ props }) => props)).toEqual([
      { articleId: 'a-1', text: 'secret text' },
      { articleId: 'a-1', question: 'poll p-1' },
    ]);
    expect(html).toContain('<div class="island" data-island="mf-a/Body" data-props="{&quot;articleId&quot;:&quot;a-1&quot;}"><p>mf-a/Body: secret text</p></div>');
    expect(html.match(/data-props="[^"]*"/g)).toEqual(['data-props="{&quot;articleId&quot;:&quot;a-1&quot;}"', 'data-props="{&quot;articleId&quot;:&quot;a-1&quot;}"']);
  });

  it('an island whose hook says null stays empty, is marked so for the browser, and brings no styles', async () => {
    const timings: IslandTiming[] = [];
    const islands = new ServerIslands({
      federation: federationOf({
        'mf-a/Body': { islandApiVersion: 2, serverProps: () => ({ text: 'here' }), render: render('mf-a/Body') },
        'mf-b/Poll': { islandApiVersion: 2, serverProps: () => null, render: () => Promise.reject(new Error('never rendered')) },
      }),
      budgetMs: 5000,
    });
    const html = await renderPageWithIslands(page, islands, { config, url: '/articles/a-1', content }, (given) => timings.push(...given));
    expect(html).toContain(
      '<div class="island" data-island="mf-b/Poll" data-props="{&quot;articleId&quot;:&quot;a-1&quot;}" data-island-hydrate="visible"></div><script type="application/json" data-island-ssr="">{"state":null,"empty":true}</script>',
    );
    expect(html).toContain('https://cdn.test/mf-a.css');
    expect(html).not.toContain('https://cdn.test/mf-b.css');
    // Not a failure: the page stays cacheable.
    expect(timings.map((timing) => timing.ok)).toEqual([true, true]);
  });

  it('a hook that throws is a failed render of that island alone: its placeholder, the others rendered', async () => {
    const timings: IslandTiming[] = [];
    const islands = new ServerIslands({
      federation: federationOf({
        'mf-a/Body': { islandApiVersion: 2, serverProps: () => ({ text: 'here' }), render: render('mf-a/Body') },
        'mf-b/Poll': { islandApiVersion: 2, serverProps: () => Promise.reject(new Error('no data')), render: render('mf-b/Poll') },
      }),
      budgetMs: 5000,
      failures: { report: () => {} } as never,
    });
    const html = await renderPageWithIslands(page, islands, { config, url: '/articles/a-1', content }, (given) => timings.push(...given));
    expect(html).toContain('<p>mf-a/Body: here</p>');
    expect(html).toContain('<div class="island" data-island="mf-b/Poll" data-props="{&quot;articleId&quot;:&quot;a-1&quot;}" data-island-hydrate="visible"></div>');
    expect(timings.map((timing) => [timing.name, timing.ok])).toEqual([
      ['mf-a/Body', true],
      ['mf-b/Poll', false],
    ]);
  });
});
