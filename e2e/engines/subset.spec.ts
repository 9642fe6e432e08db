// The cross-engine subset: what a visitor does most, in Chromium, Firefox ESR and WebKitGTK
// (engines.config.ts runs this file once per engine), written once against engines/driver.ts.
// Every test ends with the CSP check of its tabs (fixtures.ts).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { getSurvey, listArticles } from '@khs/content';
import { examplePageConfig } from 'contracts';
import { currentWait, focus, testEndedSince, waitFor, waitForVisible, type EnginePage } from './driver.js';
import { ENGINE_NAMES } from './engines.js';
import { expect, test } from './fixtures.js';

const { i18n, search: searchConfig } = examplePageConfig();
const HITS_PER_PAGE = searchConfig.limit;
const articles = listArticles();
const [first, second] = articles as [(typeof articles)[0], (typeof articles)[0]];
const withGallery = articles.find((article) => (article.gallery?.length ?? 0) >= 2)!;
// One survey per engine: the engines share the stack, and each counts its own votes.
const surveyArticles = articles
  .filter((article) => article.surveyHandle && getSurvey(article.surveyHandle))
  .filter((article, index, all) => all.findIndex((other) => other.surveyHandle === article.surveyHandle) === index);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const HEADER_BOX = '.site-header [role="combobox"]';
const LIST = '.khs-search-list';
const LIST_BOX = '.khs-search-list [role="combobox"]';
const TEASERS = '.khs-search-list .khs-search-teaser';
const LOAD_MORE = '.khs-search-list a.khs-search-load-more__button';
const BADGE = '.site-header .khs-watchlist-link__badge';
const SURVEY = '.article__survey form.khs-survey';

/**
 * Waits until every island mounted, gave up, or waits for the reader's interaction; islands that
 * hydrate when seen are scrolled into view first, as a reader would (harness/fixtures.ts, here on `evaluate`).
 */
async function islandsSettled(tab: EnginePage): Promise<void> {
  await waitFor(tab, () => document.readyState === 'complete');
  // Each island that hydrates when seen is brought into view and looked at until it has mounted (or
  // given up), as a reader would: frames and observers come when the engine gets to them.
  const waitingToBeSeen = await tab.evaluate(() =>
    [...document.querySelectorAll('[data-island-hydrate="visible"]')]
      .filter((element) => !element.hasAttribute('data-island-state'))
      .map((element, index) => {
        element.setAttribute('data-e2e-seen', String(index));
        return `[data-e2e-seen="${index}"]`;
      }),
  );
  for (const selector of waitingToBeSeen) {
    await tab.evaluate((css) => document.querySelector(css)?.scrollIntoView({ block: 'center' }), selector);
    await waitFor(tab, (css) => document.querySelector(css)?.hasAttribute('data-island-state') ?? true, selector, { message: `${selector} mounted once seen` });
  }
  await tab.evaluate(() => window.scrollTo(0, 0));
  // The islands not settled yet, with what their elements say, named in the report if it times out.
  currentWait.message = 'every island settled';
  const ended = testEndedSince();
  for (;;) {
    if (ended()) throw new Error('the test ended while waiting for every island to settle');
    const unsettled = await tab.evaluate(() =>
      [...document.querySelectorAll('[data-island]')]
        .filter((element) => !element.hasAttribute('data-island-state') && element.getAttribute('data-island-waiting') !== 'interaction')
        .map((element) => `${element.getAttribute('data-island')} (${[...element.attributes].map((a) => a.name).filter((name) => name.startsWith('data-island-')).join(' ')}; visibility ${document.visibilityState})`),
    );
    currentWait.last = unsettled;
    if (unsettled.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  currentWait.message = undefined;
}

const count = (tab: EnginePage, selector: string) => tab.evaluate((css) => document.querySelectorAll(css).length, selector);
const attribute = (tab: EnginePage, selector: string, name: string) =>
  tab.evaluate(([css, attr]) => document.querySelector(css)?.getAttribute(attr) ?? null, [selector, name] as const);
const value = (tab: EnginePage, selector: string) => tab.evaluate((css) => (document.querySelector(css) as HTMLInputElement | null)?.value ?? null, selector);
const activeElementMatches = (tab: EnginePage, selector: string) => tab.evaluate((css) => document.activeElement?.matches(css) ?? false, selector);
/** Waits until `selector`'s attribute `name` is `expected`. */
const attributeIs = (tab: EnginePage, selector: string, name: string, expected: string | null) =>
  waitFor(tab, ([css, attr, want]) => (document.querySelector(css)?.getAttribute(attr) ?? null) === want, [selector, name, expected] as const, {
    message: `${selector} [${name}="${expected}"]`,
  });
const countIs = (tab: EnginePage, selector: string, expected: number) =>
  waitFor(tab, ([css, want]) => document.querySelectorAll(css).length === want, [selector, expected] as const, { message: `${expected} × ${selector}` });
/** Selector of the first `scope` element named `text` (its `aria-label`, else its text), marked for the driver's click. */
async function byText(tab: EnginePage, scope: string, text: string): Promise<string> {
  const mark = await waitFor(
    tab,
    ([css, wanted]) => {
      const element = [...document.querySelectorAll(css)].find((candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent?.trim()) === wanted);
      if (!element) return null;
      const id = element.getAttribute('data-e2e-target') ?? String(Math.random()).slice(2);
      element.setAttribute('data-e2e-target', id);
      return id;
    },
    [scope, text] as const,
    { message: `${scope} with the text "${text}"` },
  );
  return `[data-e2e-target="${mark}"]`;
}

test.describe('cross-engine subset', () => {
  test('server pages without scripts: an article reads fully; the search list pages through a link', async ({ newVisitor, site }) => {
    const visitor = await newVisitor({ javaScript: false });
    const article = await visitor.open(first.url);
    expect(await article.evaluate(() => document.querySelector('h1')?.textContent)).toBe(first.headline || first.title);
    expect(await article.evaluate(() => document.querySelector('.article__intro')?.textContent)).toBe(first.intro);
    expect(await count(article, '.article__content p')).toBe(first.content.split(/\n{2,}/).length);
    expect(await attribute(article, '.site-header a[href="/watchlist"]', 'href')).toBe('/watchlist');
    // No island ran: the shell's runtime did not either.
    expect(await count(article, '[data-island-state]')).toBe(0);

    const search = await visitor.open('/search?q=work');
    expect(await count(search, TEASERS)).toBe(HITS_PER_PAGE);
    expect(await search.evaluate(() => document.querySelector('.khs-search-teaser mark')?.textContent?.toLowerCase())).toContain('work');
    expect(await attribute(search, LOAD_MORE, 'href')).toBe('/search?q=work&page=2');
    await search.click(LOAD_MORE);
    await waitFor(search, () => location.search === '?q=work&page=2');
    await countIs(search, TEASERS, 2 * HITS_PER_PAGE);
    expect(new URL(await search.url(), site.url).pathname).toBe('/search');
  });

  test('hydration: the search list hydrates the server answer in place, nothing moves', async ({ tab, site }) => {
    await tab.goto(new URL('/search?q=work', site.url).href);
    await islandsSettled(tab);
    await attributeIs(tab, '[data-island="mf-search/SearchList"]', 'data-search-list', 'bound');
    const boxes = () =>
      tab.evaluate(() => {
        const box = (css: string) => {
          const rect = document.querySelector(css)!.getBoundingClientRect();
          return [Math.round(rect.x), Math.round(rect.y + window.scrollY), Math.round(rect.width), Math.round(rect.height)];
        };
        return { teaser: box('.khs-search-teaser'), header: box('.site-header form[role="search"]'), list: box('.khs-search-list [role="combobox"]') };
      });
    const before = await boxes();
    await tab.evaluate(() => ((document.querySelector('.khs-search-teaser') as HTMLElement & { __fromServer?: boolean }).__fromServer = true));
    await focus(tab, LIST_BOX);
    await attributeIs(tab, '[data-island="mf-search/SearchList"]', 'data-search-list', 'interactive');
    // Hydrated, not replaced: the server's element is still there, where it was.
    expect(await tab.evaluate(() => (document.querySelector('.khs-search-teaser') as HTMLElement & { __fromServer?: boolean }).__fromServer)).toBe(true);
    expect(await boxes()).toEqual(before);
    expect(await value(tab, LIST_BOX)).toBe('work');
  });

  test('watchlist across tabs: a save in one tab shows in the other at once', async ({ visitor }) => {
    const one = await visitor.open(first.url);
    await islandsSettled(one);
    const other = await visitor.open(second.url);
    await islandsSettled(other);
    await waitFor(other, (css) => document.querySelector(css)?.textContent === '0', BADGE);
    await one.click('.article__watchlist button[aria-pressed="false"]');
    await attributeIs(one, '.article__watchlist button', 'aria-pressed', 'true');
    await waitFor(one, (css) => document.querySelector(css)?.textContent === '1', BADGE, { message: 'badge 1 in the tab that saved' });
    // The other tab follows through the storage event, without a reload.
    await waitFor(other, (css) => document.querySelector(css)?.textContent === '1', BADGE, { message: 'badge 1 in the other tab' });
    await other.reload();
    await islandsSettled(other);
    await waitFor(other, (css) => document.querySelector(css)?.textContent === '1', BADGE);
  });

  test('search typing with a typo: every key kept, the article found and highlighted', async ({ tab, site }) => {
    await tab.goto(new URL('/search', site.url).href);
    await islandsSettled(tab);
    await attributeIs(tab, LIST, 'data-status', 'idle');
    await focus(tab, LIST_BOX);
    // Typed at once, while the full island loads and hydrates (the rules that read
    // `navigator.scheduling.isInputPending` where Chromium has it, and a plain debounce elsewhere).
    await tab.type('negotaiting');
    await waitFor(tab, (css) => (document.querySelector(css) as HTMLElement).getAttribute('data-query') === 'negotaiting', LIST, { message: 'the list searched the whole query' });
    await attributeIs(tab, LIST, 'data-status', 'idle');
    expect(await value(tab, LIST_BOX)).toBe('negotaiting');
    expect(await activeElementMatches(tab, LIST_BOX)).toBe(true);
    const highlighted = await waitFor(tab, () => {
      const teaser = document.querySelector('.khs-search-teaser:has(a[href="/articles/negotiating-with-suppliers"])');
      return teaser?.querySelector('mark')?.textContent ?? null;
    });
    expect(highlighted).toMatch(/^negotiat/i);
  });

  test('load more: the next page joins the list in place, with "viewing X of Y"', async ({ tab, site }) => {
    await tab.goto(new URL('/search', site.url).href);
    await islandsSettled(tab);
    await attributeIs(tab, LIST, 'data-status', 'idle');
    const total = Number(await attribute(tab, `${LIST} progress`, 'max'));
    expect(total).toBeGreaterThan(2 * HITS_PER_PAGE);
    await tab.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await tab.click(LOAD_MORE);
    await countIs(tab, TEASERS, 2 * HITS_PER_PAGE);
    await attributeIs(tab, `${LIST} progress`, 'value', String(2 * HITS_PER_PAGE));
    const viewing = i18n.viewing.replace('{count}', String(2 * HITS_PER_PAGE)).replace('{total}', String(total));
    await waitFor(tab, (text) => document.querySelector('.khs-search-load-more__viewing')?.textContent === text, viewing);
    // In place: the same document, the address says which page.
    expect(await tab.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await waitFor(tab, () => new URLSearchParams(location.search).get('page') === '2');
  });

  test('autocomplete keys: arrows wrap, Escape closes then clears, Enter goes to the search page', async ({ tab, site }) => {
    await tab.goto(site.url);
    await islandsSettled(tab);
    await focus(tab, HEADER_BOX);
    await tab.type('lead');
    await attributeIs(tab, HEADER_BOX, 'aria-expanded', 'true');
    await waitFor(tab, (css) => (document.querySelector(css) as HTMLInputElement).value === 'lead', HEADER_BOX);
    const options = await waitFor(tab, () => {
      const texts = [...document.querySelectorAll('.site-header [role="option"]')].map((option) => option.textContent ?? '');
      return texts.length > 1 ? texts : null;
    });
    for (const text of options) expect(text.toLowerCase()).toContain('lead');
    const active = () => tab.evaluate((css) => document.getElementById(document.querySelector(css)!.getAttribute('aria-activedescendant') ?? '')?.textContent ?? null, HEADER_BOX);
    await tab.press('ArrowDown');
    expect(await active()).toBe(options[0]);
    await tab.press('ArrowUp');
    expect(await active()).toBe(options.at(-1));
    await tab.press('ArrowDown');
    expect(await active()).toBe(options[0]);
    await tab.press('Escape');
    await attributeIs(tab, HEADER_BOX, 'aria-expanded', 'false');
    expect(await value(tab, HEADER_BOX)).toBe('lead');
    await tab.press('Escape');
    await waitFor(tab, (css) => (document.querySelector(css) as HTMLInputElement).value === '', HEADER_BOX);

    await tab.type('lead');
    await attributeIs(tab, HEADER_BOX, 'aria-expanded', 'true');
    await tab.press('ArrowDown');
    const chosen = (await active())!;
    await tab.press('Enter');
    await waitFor(tab, (query) => location.pathname === '/search' && new URLSearchParams(location.search).get('q') === query, chosen, { message: `/search?q=${chosen}` });
    await islandsSettled(tab);
    expect(await value(tab, LIST_BOX)).toBe(chosen);
  });

  test('survey: vote, see the results, reload shows them, a second visitor changes them', async ({ tab, site, newVisitor, engineName }) => {
    const article = surveyArticles[ENGINE_NAMES.indexOf(engineName)]!;
    const survey = getSurvey(article.surveyHandle!)!;
    const [firstAnswer, secondAnswer] = survey.answers as [(typeof survey.answers)[0], (typeof survey.answers)[0]];
    const percentages = (page: EnginePage) =>
      page.evaluate(
        ([css, labels]) => Object.fromEntries(labels.map((label) => {
          const meter = [...document.querySelectorAll(`${css} [role="meter"]`)].find((element) => element.getAttribute('aria-label') === label || document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent === label);
          return [label, Number(meter?.getAttribute('aria-valuenow'))];
        })),
        [SURVEY, survey.answers.map((answer) => answer.label)] as const,
      );
    const expected = (shares: Record<number, number>) => Object.fromEntries(survey.answers.map((answer) => [answer.label, shares[answer.position] ?? 0]));
    const vote = async (page: EnginePage, label: string) => {
      await islandsSettled(page);
      await attributeIs(page, SURVEY, 'data-phase', 'answering');
      const radio = await page.evaluate(([css, wanted]) => {
        const input = [...document.querySelectorAll<HTMLInputElement>(`${css} input[type="radio"]`)].find((candidate) => candidate.labels?.[0]?.textContent?.trim() === wanted);
        input?.setAttribute('data-e2e-answer', '');
        return input ? `${css} [data-e2e-answer]` : null;
      }, [SURVEY, label] as const);
      expect(radio, `an answer "${label}"`).not.toBeNull();
      await page.click(radio!);
      await page.click(await byText(page, `${SURVEY} button`, 'Vote'));
      await attributeIs(page, SURVEY, 'data-phase', 'results');
    };

    await tab.goto(new URL(article.url, site.url).href);
    await vote(tab, firstAnswer.label);
    expect(await percentages(tab)).toEqual(expected({ [firstAnswer.position]: 100 }));
    expect(await count(tab, `${SURVEY} button[type="submit"]`)).toBe(0);
    await tab.reload();
    await islandsSettled(tab);
    await attributeIs(tab, SURVEY, 'data-phase', 'results');
    expect(await percentages(tab)).toEqual(expected({ [firstAnswer.position]: 100 }));

    const other = await (await newVisitor()).open(article.url);
    await vote(other, secondAnswer.label);
    expect(await percentages(other)).toEqual(expected({ [firstAnswer.position]: 50, [secondAnswer.position]: 50 }));
  });

  test('tabs and dialog keys: arrows, Home and End on the tabs; the dialog traps focus, Escape returns it', async ({ tab, site }) => {
    await tab.goto(new URL(withGallery.url, site.url).href);
    await islandsSettled(tab);
    await attributeIs(tab, '[data-island="mf-widgets/PageWidgets"]', 'data-island-state', 'mounted');
    const tabSelector = (name: string) => byText(tab, '[role="tablist"][aria-label="Key takeaways"] [role="tab"]', name);
    const selected = async (name: string) => attributeIs(tab, await tabSelector(name), 'aria-selected', 'true');
    const focused = async (name: string) => waitFor(tab, (css) => document.activeElement?.matches(css) ?? false, await tabSelector(name), { message: `tab ${name} focused` });
    await tab.click(await tabSelector('Summary'));
    await selected('Summary');
    await tab.press('ArrowRight');
    await focused('Key points');
    await selected('Key points');
    await tab.press('ArrowRight');
    await tab.press('ArrowRight');
    await focused('Summary');
    await tab.press('ArrowLeft');
    await selected('Next steps');
    await tab.press('Home');
    await focused('Summary');
    await tab.press('End');
    await focused('Next steps');

    // The trigger is a link to the dialog, a button once enhanced.
    const trigger = '[data-dialog-open="article-cite"]';
    await tab.click(trigger);
    await waitForVisible(tab, '#article-cite');
    await attributeIs(tab, trigger, 'aria-expanded', 'true');
    const inDialog = (css: string) => waitFor(tab, (wanted) => document.activeElement?.matches(wanted) ?? false, css, { message: `${css} focused` });
    await inDialog('#article-cite button');
    // Through the link and back; Shift+Tab wraps from the first element to the last (in WebKitGTK
    // its key is "Unidentified", code "Tab": mf-widgets' focus trap knows it).
    await tab.press('Tab');
    await inDialog('#article-cite a');
    await tab.press('Tab');
    await inDialog('#article-cite button');
    await tab.press('Shift+Tab');
    await inDialog('#article-cite a');
    await tab.press('Escape');
    await waitFor(tab, () => document.getElementById('article-cite')!.hidden);
    await waitFor(tab, (css) => document.activeElement?.matches(css) ?? false, trigger, { message: 'focus back on the trigger' });
    await attributeIs(tab, trigger, 'aria-expanded', 'false');
  });

  test('axe-core finds nothing on the home page, the search results and an article', async ({ tab, site }) => {
    for (const path of ['/', '/search?q=team', withGallery.url]) {
      await tab.goto(new URL(path, site.url).href);
      await islandsSettled(tab);
      // Run as the driver's script: the page's CSP (rightly) refuses an injected inline script.
      await tab.addScript(axeSource);
      const violations = await tab.evaluate(async () => {
        type Result = { violations: { id: string; nodes: { target: unknown }[] }[] };
        const axe = (window as unknown as { axe: { run(context: Document): Promise<Result> } }).axe;
        const result = await axe.run(document);
        return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
      });
      expect(violations, path).toEqual([]);
    }
  });

  test('the idle prefetch of the full search island and React happens within the CSP', async ({ tab, site }) => {
    const manifest = (await (await fetch(`${site.remotes['mf-search']}/mf-manifest.json`)).json()) as { exposes: Array<{ name: string; assets: { js: { async: string[] } } }> };
    const island = manifest.exposes.find((expose) => expose.name === 'SearchList')!.assets.js.async.find((file) => file.startsWith('search-list-full'))!;
    await tab.goto(new URL('/search?q=work', site.url).href);
    await islandsSettled(tab);
    await attributeIs(tab, '[data-island="mf-search/SearchList"]', 'data-search-list', 'bound');
    // Fetched (a blocked request leaves no resource entry), nothing run: the island is still only bound.
    const fetched = await waitFor(
      tab,
      (file) => {
        const names = performance.getEntriesByType('resource').map((entry) => entry.name);
        return names.some((name) => name.endsWith(`/${file}`)) && names.some((name) => /\/(121|275|470|89)\.[0-9a-f]+\.js$/.test(name)) ? names : null;
      },
      island,
      { message: `${island} and React prefetched` },
    );
    expect(fetched.filter((name) => name.endsWith(`/${island}`))).toHaveLength(1);
    expect(await attribute(tab, '[data-island="mf-search/SearchList"]', 'data-search-list')).toBe('bound');
  });

  test('a dead remote: its islands keep their server markup, every other island works', async ({ tab, site }) => {
    await fetch(`${site.control}/remotes/mf-watchlist/dead`, { method: 'POST' });
    try {
      await tab.goto(new URL(first.url, site.url).href);
      await islandsSettled(tab);
      const states = await tab.evaluate(() => [...document.querySelectorAll('[data-island]')].map((element) => [element.getAttribute('data-island'), element.getAttribute('data-island-state') ?? element.getAttribute('data-island-waiting')]));
      const watchlist = states.filter(([name]) => name!.startsWith('mf-watchlist/'));
      expect(watchlist.length).toBeGreaterThan(0);
      for (const [name, state] of watchlist) expect(state, name!).toBe('failed');
      for (const [name, state] of states.filter(([other]) => !other!.startsWith('mf-watchlist/'))) expect(['mounted', 'interaction', 'empty'], name!).toContain(state);
      // The fallback is the server's markup: the plain link to the watchlist page still leads there.
      expect(await attribute(tab, '.site-header a[href="/watchlist"]', 'href')).toBe('/watchlist');
    } finally {
      await fetch(`${site.control}/remotes/mf-watchlist/live`, { method: 'POST' });
    }
  });
});
