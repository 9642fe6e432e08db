import { describe, expect, it } from 'vitest';
import { PAGE_CONFIG_ELEMENT_ID, examplePageConfig, type PageConfig } from 'contracts';
import { Island } from '../pages/Island.js';
import { Layout } from '../pages/Layout.js';
import { renderPageWithIslands } from './islandCollector.js';
import { ServerIslands } from './serverIslands.js';
import { LIVE_URL, ORIGIN, fakeOrigin, federationFor } from './versionsOrigin.testing.js';

const config: PageConfig = { ...examplePageConfig(), remotes: [{ name: 'mf-hello', entry: LIVE_URL }] };

function page() {
  return (
    <Layout title="t" config={config} runtimeUrl="/assets/shell-runtime.js" firstViewRemotes={['mf-hello']}>
      <Island name="mf-hello/Hello" />
    </Layout>
  );
}

/** The page config the browser reads (its remotes' manifest URLs). */
function browserConfig(html: string): PageConfig {
  const match = new RegExp(`<script type="application/json" id="${PAGE_CONFIG_ELEMENT_ID}">(.*?)</script>`).exec(html);
  return JSON.parse(match![1]!) as PageConfig;
}

describe('a page pins the builds it rendered', () => {
  it("hands the browser the rendered build's own manifest, so a deploy after the HTML changes nothing on it", async () => {
    const remote = fakeOrigin(['1.0.0+aaaa', '1.0.0+bbbb'], '1.0.0+aaaa');
    const federation = federationFor(remote);
    const islands = new ServerIslands({ federation, budgetMs: 1000 });
    await federation.preload();
    const html = await renderPageWithIslands(page(), islands, { config, url: '/' });
    expect(html).toContain('<p>1.0.0+aaaa</p>');
    expect(browserConfig(html).remotes).toEqual([{ name: 'mf-hello', entry: `${ORIGIN}versions/1.0.0+aaaa/mf-manifest.json` }]);
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin="anonymous" href="${ORIGIN}versions/1.0.0+aaaa/mf-manifest.json"/>`);
    expect(html).not.toContain(`href="${LIVE_URL}"`);

    // A deploy: the next page renders and pins the new build.
    remote.origin.live = '1.0.0+bbbb';
    await federation.revalidate();
    const next = await renderPageWithIslands(page(), islands, { config, url: '/' });
    expect(next).toContain('<p>1.0.0+bbbb</p>');
    expect(browserConfig(next).remotes[0]!.entry).toBe(`${ORIGIN}versions/1.0.0+bbbb/mf-manifest.json`);
    await federation.close();
  });

  it('leaves the live manifest in a page whose remote is served straight from a build (no deploy, no version folder)', async () => {
    const remote = fakeOrigin(['1.0.0+aaaa'], '1.0.0+aaaa');
    remote.origin.deployedAt = undefined;
    const federation = federationFor(remote);
    const islands = new ServerIslands({ federation, budgetMs: 1000 });
    await federation.preload();
    const html = await renderPageWithIslands(page(), islands, { config, url: '/' });
    expect(html).toContain('<p>1.0.0+aaaa</p>');
    expect(browserConfig(html).remotes).toEqual(config.remotes);
    await federation.close();
  });
});
