import { describe, expect, it } from 'vitest';
import { examplePageConfig } from 'contracts';
import { Island } from '../pages/Island.js';
import { renderPageWithIslands, serverTimingHeader, type IslandTiming } from './islandCollector.js';
import type { IslandRequest, ServerIslands } from './serverIslands.js';

function fakeIslands(outcomes: Record<string, { html: string; state?: unknown } | 'fail'>): ServerIslands & { seen: IslandRequest[] } {
  const seen: IslandRequest[] = [];
  return {
    seen,
    async renderAll(requests: IslandRequest[]) {
      seen.push(...requests);
      return requests.map((request) => {
        const outcome = outcomes[request.name];
        return outcome === 'fail' || !outcome ? { ok: false, stage: 'render', ms: 2 } : { ok: true, result: outcome, ms: 1.25 };
      });
    },
    stylesheets: (requests: IslandRequest[]) => requests.map((request) => `https://cdn.test/${request.name}.css`),
    firstViewScripts: (requests: IslandRequest[]) => requests.filter((request) => !request.hydrate).map((request) => `https://cdn.test/${request.name}.js`),
  } as unknown as ServerIslands & { seen: IslandRequest[] };
}

describe('renderPageWithIslands', () => {
  it("puts each remote's HTML and state into its island, placeholders where a remote failed, and the islands' styles into the head", async () => {
    const timings: IslandTiming[] = [];
    const islands = fakeIslands({ 'mf-a/One': { html: '<p>one & only</p>', state: { hits: ['</script>'] } }, 'mf-b/Two': 'fail' });
    const html = await renderPageWithIslands(
      <html>
        <head>
          <title>t</title>
        </head>
        <body>
          <Island name="mf-a/One" props={{ id: '1' }} />
          <Island name="mf-b/Two">
            <span>placeholder</span>
          </Island>
        </body>
      </html>,
      islands,
      { config: examplePageConfig(), url: '/x' },
      (given) => timings.push(...given),
    );
    expect(serverTimingHeader(timings)).toBe('island;desc="mf-a/One";dur=1.3, island;desc="mf-b/Two (placeholder)";dur=2.0');
    expect(islands.seen).toEqual([
      { name: 'mf-a/One', props: { id: '1' } },
      { name: 'mf-b/Two', props: {} },
    ]);
    expect(html).toContain(
      '<div class="island" data-island="mf-a/One" data-props="{&quot;id&quot;:&quot;1&quot;}"><p>one & only</p></div><script type="application/json" data-island-ssr="">{"state":{"hits":["\\u003c/script\\u003e"]}}</script>',
    );
    expect(html).toContain('<div class="island" data-island="mf-b/Two" data-props="{}"><span>placeholder</span></div>');
    expect(html).not.toContain('khs-island:');
    // Only the rendered island's styles: a failed one mounts later and loads its own.
    expect(html).toContain('<link rel="stylesheet" href="https://cdn.test/mf-a/One.css"/></head>');
    expect(html).not.toContain('mf-b/Two.css');
    // The rendered island's scripts are preloaded before its styles.
    expect(html).toContain('<link rel="preload" as="script" fetchpriority="low" href="https://cdn.test/mf-a/One.js"/><link rel="stylesheet"');
    expect(html).not.toContain('mf-b/Two.js');
  });

  it('tells the islands when each hydrates, so one that waits for a trigger preloads nothing', async () => {
    const islands = fakeIslands({ 'mf-a/Now': { html: '<p>now</p>' }, 'mf-a/Later': { html: '<p>later</p>' } });
    const html = await renderPageWithIslands(
      <html>
        <head />
        <body>
          <Island name="mf-a/Now" />
          <Island name="mf-a/Later" hydrate="interaction" />
        </body>
      </html>,
      islands,
      { config: examplePageConfig(), url: '/x' },
    );
    expect(islands.seen).toEqual([
      { name: 'mf-a/Now', props: {} },
      { name: 'mf-a/Later', props: {}, hydrate: 'interaction' },
    ]);
    expect(html).toContain('<link rel="preload" as="script" fetchpriority="low" href="https://cdn.test/mf-a/Now.js"/>');
    expect(html).not.toContain('mf-a/Later.js');
  });

  it('renders an inline island (a span inside a sentence) the same way, rendered or failed', async () => {
    const islands = fakeIslands({ 'mf-a/Link': { html: '<a href="#x">link</a>' }, 'mf-b/Link': 'fail' });
    const html = await renderPageWithIslands(
      <p>
        Read the <Island name="mf-a/Link" inline /> or the{' '}
        <Island name="mf-b/Link" inline>
          <a href="#y">plain link</a>
        </Island>
        .
      </p>,
      islands,
      { config: examplePageConfig(), url: '/x' },
    );
    expect(html).toContain(
      '<span class="island island--inline" data-island="mf-a/Link" data-props="{}"><a href="#x">link</a></span><script type="application/json" data-island-ssr="">{"state":null}</script>',
    );
    expect(html).toContain('<span class="island island--inline" data-island="mf-b/Link" data-props="{}"><a href="#y">plain link</a></span>');
    expect(html).not.toContain('khs-island:');
  });
});
