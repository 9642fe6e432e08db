import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { examplePageConfig, type PageFragment } from 'contracts';
import { renderPageWithIslands } from '../federation/islandCollector.js';
import type { IslandRequest, ServerIslands } from '../federation/serverIslands.js';
import { PageFragmentContent } from './PageFragmentContent.js';

/** Server islands that record what they are asked for; `mf-widgets/Ok` renders, the rest fail. */
function recordingIslands(): ServerIslands & { seen: IslandRequest[] } {
  const seen: IslandRequest[] = [];
  return {
    seen,
    async renderAll(requests: IslandRequest[]) {
      seen.push(...requests);
      return requests.map((request) => (request.name === 'mf-widgets/Ok' ? { ok: true, result: { html: '<b>rendered</b>' }, ms: 1 } : { ok: false, stage: 'render', ms: 1 }));
    },
    // Each island's outcome as renderAll gives it (the page waits for every island here).
    renderEach(this: Pick<ServerIslands, 'renderAll'>, requests: IslandRequest[], page: Parameters<ServerIslands['renderAll']>[1]) {
      const all = this.renderAll(requests, page);
      return requests.map((_request, index) => all.then((outcomes) => outcomes[index]!));
    },
    failingRemotes: () => [],
    stylesheets: () => [],
    firstViewScripts: () => [],
  } as unknown as ServerIslands & { seen: IslandRequest[] };
}

const FRAGMENT: PageFragment = {
  title: 'T',
  pageClass: 'page-x',
  html:
    '<p>Read the <span class="island island--inline" data-island="mf-widgets/Ok" data-props="{}"><!--khs-fragment-island:0--></span>.</p>' +
    '<div class="island" data-island="mf-widgets/Broken" data-props="{&quot;id&quot;:&quot;f&quot;}"><!--khs-fragment-island:1--></div>',
  islands: [
    { name: 'mf-widgets/Ok', props: {}, serverProps: { label: 'secret-ish server prop' }, inline: true, placeholderHtml: '<a href="#x">notice</a>' },
    { name: 'mf-widgets/Broken', props: { id: 'f' }, placeholderHtml: '<input id="f" type="file"/>' },
  ],
};

describe('a service page fragment in the shell', () => {
  it("has its islands rendered by the shell's island renderer: server props to the remote only, the service's placeholder where a remote fails", async () => {
    const islands = recordingIslands();
    const html = await renderPageWithIslands(<PageFragmentContent fragment={FRAGMENT} />, islands, { config: examplePageConfig(), url: '/x' });
    expect(islands.seen).toEqual([
      { name: 'mf-widgets/Ok', props: { label: 'secret-ish server prop' } },
      { name: 'mf-widgets/Broken', props: { id: 'f' } },
    ]);
    expect(html).toContain('<span class="island island--inline" data-island="mf-widgets/Ok" data-props="{}"><b>rendered</b></span>');
    expect(html).toContain('<div class="island" data-island="mf-widgets/Broken" data-props="{&quot;id&quot;:&quot;f&quot;}"><input id="f" type="file"/></div>');
    expect(html).not.toContain('secret-ish');
    expect(html).not.toMatch(/khs-(fragment-)?island:/);
  });

  it('shows the placeholders without server islands', () => {
    const html = renderToStaticMarkup(<PageFragmentContent fragment={FRAGMENT} />);
    expect(html).toContain('<a href="#x">notice</a></span>');
    expect(html).toContain('<input id="f" type="file"/></div>');
    expect(html).not.toContain('khs-fragment-island');
  });
});
