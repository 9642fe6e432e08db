import { describe, expect, it } from 'vitest';
import { examplePageConfig } from 'contracts';
import { Island } from '../pages/Island.js';
import type { Readable } from 'node:stream';
import { renderPageWithIslands, serverTimingHeader, streamPageWithIslands, type IslandTiming } from './islandCollector.js';
import type { IslandOutcome, IslandRequest, ServerIslands } from './serverIslands.js';

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
    // Each island's outcome as renderAll gives it (the page waits for every island here).
    renderEach(this: Pick<ServerIslands, 'renderAll'>, requests: IslandRequest[], page: Parameters<ServerIslands['renderAll']>[1]) {
      const all = this.renderAll(requests, page);
      return requests.map((_request, index) => all.then((outcomes) => outcomes[index]!));
    },
    failingRemotes: () => [],
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

/** Islands whose outcomes the test settles by hand, in any order; a head budget of 5 ms. */
function heldIslands(failing: string[] = []) {
  const settle = new Map<string, (outcome: IslandOutcome) => void>();
  const islands = {
    headBudgetMs: 5,
    renderEach: (requests: IslandRequest[]) =>
      requests.map((request) => new Promise<IslandOutcome>((resolve) => settle.set(request.name, resolve))),
    failingRemotes: () => failing,
    stylesheets: (requests: IslandRequest[]) => requests.map((request) => `https://cdn.test/${request.name}.css`),
    firstViewScripts: () => [],
    federation: { pinnableLiveVersion: () => undefined, browserEntryUrl: () => undefined, pinnedManifestUrl: () => undefined },
  } as unknown as ServerIslands;
  const render = (name: string, html: string) => settle.get(name)!({ ok: true, result: { html }, ms: 1 });
  const fail = (name: string) => settle.get(name)!({ ok: false, stage: 'timeout', ms: 1000 });
  return { islands, render, fail };
}

const STREAMED_PAGE = (
  <html>
    <head>
      <title>t</title>
    </head>
    <body>
      <header>the header</header>
      <Island name="mf-a/Slow">
        <span>slow placeholder</span>
      </Island>
      <p>between</p>
      <Island name="mf-b/Fast" />
      <footer>the footer</footer>
    </body>
  </html>
);

/** Reads a stream's chunks one by one, each as soon as it is written. */
function chunkReader(body: string | Readable) {
  if (typeof body === 'string') throw new Error('expected a stream');
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return async () => {
    const next = await iterator.next();
    return next.done ? undefined : String(next.value);
  };
}

describe('streamPageWithIslands', () => {
  it('sends the head (every island\'s styles) and the page up to the first island not yet rendered at once, then each island in document order as it comes', async () => {
    const { islands, render } = heldIslands();
    const page = await streamPageWithIslands(STREAMED_PAGE, islands, { config: examplePageConfig(), url: '/x' });
    expect(page.start).toEqual({ streamed: true, degraded: false, failingRemotes: [] });
    const next = chunkReader(page.body);
    const first = await next();
    expect(first).toContain('<link rel="stylesheet" href="https://cdn.test/mf-a/Slow.css"/><link rel="stylesheet" href="https://cdn.test/mf-b/Fast.css"/></head>');
    expect(first).toContain('<header>the header</header>');
    expect(first?.endsWith('<div class="island" data-island="mf-a/Slow" data-props="{}">')).toBe(true);
    // The later island is ready first: it waits for the slow one (document order).
    render('mf-b/Fast', '<i>fast</i>');
    const waiting = next();
    render('mf-a/Slow', '<b>slow</b>');
    const rest = `${await waiting}${(await next()) ?? ''}`;
    expect(rest).toMatch(/^<b>slow<\/b><\/div><script type="application\/json" data-island-ssr="">\{"state":null\}<\/script><p>between<\/p><div class="island" data-island="mf-b\/Fast" data-props="\{\}"><i>fast<\/i><\/div>/);
    expect(rest).toContain('<footer>the footer</footer></body></html>');
    expect(await next()).toBeUndefined();
  });

  it('puts the placeholder in an island that fails after the head went out', async () => {
    const { islands, render, fail } = heldIslands();
    const page = await streamPageWithIslands(STREAMED_PAGE, islands, { config: examplePageConfig(), url: '/x' });
    const next = chunkReader(page.body);
    await next();
    fail('mf-a/Slow');
    render('mf-b/Fast', '<i>fast</i>');
    let rest = '';
    for (let chunk = await next(); chunk !== undefined; chunk = await next()) rest += chunk;
    expect(rest).toContain('<span>slow placeholder</span></div><p>between</p>');
    expect(rest).toContain('<i>fast</i>');
  });

  it('sends the whole document as one string when every island rendered within the head budget', async () => {
    const { islands, render, fail } = heldIslands();
    const rendering = streamPageWithIslands(STREAMED_PAGE, islands, { config: examplePageConfig(), url: '/x' }, { headBudgetMs: 60_000 });
    await Promise.resolve();
    render('mf-b/Fast', '<i>fast</i>');
    fail('mf-a/Slow');
    const page = await rendering;
    expect(page.start).toEqual({ streamed: false, degraded: true, failingRemotes: [] });
    expect(typeof page.body).toBe('string');
    expect(page.body).toContain('<span>slow placeholder</span></div><p>between</p><div class="island" data-island="mf-b/Fast" data-props="{}"><i>fast</i></div>');
    // Whole: only the rendered island's styles (the failed one loads its own when it mounts).
    expect(page.body).not.toContain('mf-a/Slow.css');
  });

  it('names the remotes the shell knows to be failing before any island renders', async () => {
    const { islands } = heldIslands(['mf-a']);
    const page = await streamPageWithIslands(STREAMED_PAGE, islands, { config: examplePageConfig(), url: '/x' }, { headBudgetMs: 0 });
    expect(page.start).toEqual({ streamed: true, degraded: false, failingRemotes: ['mf-a'] });
    (page.body as Readable).destroy();
  });
});
