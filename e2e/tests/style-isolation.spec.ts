import { getSurvey, listArticles } from '@khs/content';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

const surveyArticle = listArticles().find((article) => article.surveyHandle && getSurvey(article.surveyHandle))!;
const galleryArticle = listArticles().find((article) => (article.gallery?.length ?? 0) >= 2)!;

/**
 * Computed properties that make up an element's look. Sizes are left out: they follow the space the
 * page gives (so is `transform`, whose computed matrix resolves percentages against the size).
 */
const LOOK = [
  'color', 'background-color', 'background-image', 'font-family', 'font-size', 'font-weight', 'font-style', 'line-height',
  'letter-spacing', 'word-spacing', 'text-transform', 'text-decoration-line', 'text-align', 'text-indent', 'white-space',
  'padding-top', 'padding-right', 'padding-bottom', 'padding-left', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'border-top-width', 'border-top-style', 'border-top-color', 'border-left-width', 'border-left-style', 'border-left-color',
  'border-top-left-radius', 'box-sizing', 'box-shadow', 'display', 'list-style-type', 'cursor', 'opacity', 'visibility',
  'outline-style', 'vertical-align', 'filter',
];

/** The look of every element matched by the selectors, keyed by selector and index. */
async function looks(page: Page, selectors: string[]): Promise<Record<string, Record<string, string>>> {
  // Measure the resting look: a transition still running (e.g. the header's shadow after the
  // harness scrolled to a waiting island and back) would read as a difference.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  return page.evaluate(
    ({ selectors, properties }) => {
      const result: Record<string, Record<string, string>> = {};
      for (const selector of selectors) {
        const elements = [...document.querySelectorAll(selector)];
        if (elements.length === 0) throw new Error(`no element matches ${selector}`);
        elements.forEach((element, index) => {
          const style = getComputedStyle(element);
          result[`${selector} #${index}`] = Object.fromEntries(properties.map((property) => [property, style.getPropertyValue(property)]));
        });
      }
      return result;
    },
    { selectors, properties: LOOK },
  );
}

/** `element: property before → after` for every property that differs. */
function differences(before: Record<string, Record<string, string>>, after: Record<string, Record<string, string>>): string[] {
  expect(Object.keys(after)).toEqual(Object.keys(before));
  return Object.entries(before).flatMap(([element, properties]) =>
    Object.entries(properties)
      .filter(([property, value]) => after[element]![property] !== value)
      .map(([property, value]) => `${element}: ${property} ${value} → ${after[element]![property]}`),
  );
}

/**
 * Rules the shell could ship, at their worst: every element of the page restyled, in both of the
 * shell's layers, including the remotes' former class names and ARIA states. (Unlayered CSS would
 * win over any layer; the shell's CSS is layered by contract, see shell/public/site.css.)
 */
const HOSTILE_SHELL_CSS = `
@layer khs-shell-base {
  body *, body *::before, body *::after {
    color: #0f0; background: #ff0 linear-gradient(#f00, #00f); font: italic 700 23px/3 serif; letter-spacing: 2px; word-spacing: 5px;
    text-transform: uppercase; text-decoration: line-through; text-align: right; text-indent: 3px; white-space: pre;
    margin: 7px; padding: 9px; border: 3px dashed #f0f; border-radius: 0; box-sizing: content-box; box-shadow: 0 0 0 4px red;
    list-style: square; cursor: crosshair; opacity: 0.5; vertical-align: top; outline: 2px dotted red; filter: blur(1px);
    transform: rotate(3deg); display: block;
  }
  button, a, input, li, mark, span, label, progress, svg, img { display: inline-grid; }
}
@layer khs-shell {
  .tag, .tags, .teaser, .button, .visually-hidden, .search-suggestion-tags__tag, .watchlist-button__toggle, .survey__answer,
  .tabs__tab, .slider__button, .topic-chip, .form-field, .form-field input,
  [role='option'], [aria-selected='true'], [aria-pressed='true'], [role='search'] button {
    background: #fff; color: #fff; display: none;
  }
}`;

async function injectShellCss(page: Page, css: string): Promise<void> {
  await page.evaluate((text) => {
    const style = document.createElement('style');
    style.dataset.hostile = '';
    style.textContent = text;
    // After the shell's own stylesheet, as a later shell rule would come.
    document.head.append(style);
  }, css);
}

/** One page state per remote, with the remote elements whose look must not change. */
const remoteStates: { name: string; open(page: Page, base: string): Promise<void>; selectors: string[] }[] = [
  {
    name: 'search idle: header search, list box, suggestion tags',
    async open(page, base) {
      await page.goto(new URL('/search', base).href);
      await islandsSettled(page);
      await expect(page.locator('.khs-search-suggestion-tags__tag')).toHaveCount(5);
    },
    selectors: [
      '.khs-search-header', '.khs-search-header input', '.khs-search-header__submit', '.khs-search-list',
      '.khs-search-combobox__label', '.khs-search-combobox input', '.khs-search-suggestion-tags', '.khs-search-suggestion-tags li',
      '.khs-search-suggestion-tags__tag',
    ],
  },
  {
    name: 'search results: teasers, highlights, filters',
    async open(page, base) {
      await page.goto(new URL('/search?q=feedback', base).href);
      await islandsSettled(page);
      await expect(page.locator('.khs-search-teaser').first()).toBeVisible();
    },
    selectors: [
      '.khs-search-teaser__link', '.khs-search-teaser__headline', '.khs-search-highlight', '.khs-search-teaser__intro',
      '.khs-search-teaser__tag', '.khs-search-teaser__cta', '.khs-search-filters__toggle', '.khs-search-hits__list',
      '.khs-search-hits__item', '.khs-search-teaser__image',
    ],
  },
  {
    name: 'article: watchlist button and header link, survey',
    async open(page, base) {
      await page.goto(new URL(surveyArticle.url, base).href);
      await islandsSettled(page);
      await expect(page.locator('.khs-survey')).toHaveAttribute('data-phase', 'answering');
    },
    selectors: [
      '.khs-watchlist-link', '.khs-watchlist-link__badge', '.khs-watchlist-button', '.khs-watchlist-button__toggle',
      '.khs-watchlist-button__toggle svg', '.khs-survey', '.khs-survey fieldset', '.khs-survey legend', '.khs-survey__answer',
      '.khs-survey__answer input', '.khs-survey__submit',
    ],
  },
  {
    name: 'watchlist screen with a saved article',
    async open(page, base) {
      await page.goto(new URL(surveyArticle.url, base).href);
      await islandsSettled(page);
      await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
      await page.goto(new URL('/watchlist', base).href);
      await islandsSettled(page);
      await expect(page.locator('.khs-watchlist-teaser').first()).toBeVisible();
    },
    selectors: [
      '.khs-watchlist-screen', '.khs-watchlist-screen__share input', '.khs-watchlist-screen__share button',
      '.khs-watchlist-teaser', '.khs-watchlist-teaser__title', '.khs-watchlist-teaser__title a', '.khs-watchlist-tag',
      '.khs-watchlist-teaser__cta', '.khs-watchlist-teaser__image', '.khs-watchlist-screen__related h2',
    ],
  },
  {
    name: 'article widgets: tabs, sliders, lightbox trigger, table, video, topic chips, dialog trigger',
    async open(page, base) {
      await page.goto(new URL(galleryArticle.url, base).href);
      await islandsSettled(page);
      await expect(page.locator('[data-island="mf-widgets/PageWidgets"]')).toHaveAttribute('data-island-state', 'mounted');
      await expect(page.locator('.khs-widgets-tabs__tab').first()).toBeVisible();
    },
    selectors: [
      '.khs-widgets-block__title', '.khs-widgets-tabs__list', '.khs-widgets-tabs__tab', '.khs-widgets-tabs__panel',
      '.khs-widgets-tabs__panel p', '.khs-widgets-slider__button', '.khs-widgets-slider__status', '.khs-widgets-gallery__figure img',
      '.khs-widgets-gallery__caption', '.khs-widgets-competence-card', '.khs-widgets-competence-card__title a',
      '.khs-widgets-scroll-table__table td', '.khs-widgets-video__play', '.khs-widgets-topic-chip', '.khs-widgets-button--secondary',
    ],
  },
  {
    name: 'contact form widgets: password toggle, file upload',
    async open(page, base) {
      await page.goto(new URL('/contact', base).href);
      await islandsSettled(page);
      await expect(page.locator('.khs-widgets-password-field__toggle')).toBeVisible();
    },
    selectors: [
      '.khs-widgets-field', '.khs-widgets-field label', '.khs-widgets-password-field__row input', '.khs-widgets-password-field__toggle',
      '.khs-widgets-file-field__label', '.khs-widgets-field__hint',
    ],
  },
];

test.describe('style isolation between the shell and the remotes', () => {
  for (const state of remoteStates) {
    test(`the shell's global CSS cannot change a remote's look: ${state.name}`, async ({ page, stack }) => {
      await state.open(page, stack.url);
      const before = await looks(page, state.selectors);
      await injectShellCss(page, HOSTILE_SHELL_CSS);
      // The hostile rules are live: a shell element did change.
      await expect(page.locator('.site-header__brand')).toHaveCSS('text-transform', 'uppercase');
      expect(differences(before, await looks(page, state.selectors))).toEqual([]);
    });
  }

  test("the remotes' CSS cannot change the shell's elements", async ({ page, stack }) => {
    // Every remote is on this page (search header, watchlist link and button, survey, widgets); the
    // shell's own elements are measured with the remotes' stylesheets on, then off.
    await page.goto(new URL(surveyArticle.url, stack.url).href);
    await islandsSettled(page);
    // Elements of the shell that look like the remotes' (buttons, links, lists, marks, options, states).
    await page.evaluate(() => {
      const probe = document.createElement('section');
      probe.id = 'shell-probe';
      probe.innerHTML = `<h2>Probe</h2><p>Text with <mark>mark</mark> and <a href="#x">a link</a>.</p>
        <button type="button" aria-pressed="true">Pressed</button><button type="button" disabled>Disabled</button>
        <ul role="listbox" aria-label="Probe"><li role="option" aria-selected="true">Option</li></ul>
        <fieldset><legend>Legend</legend><label><input type="radio" name="p"> Radio</label></fieldset>
        <progress max="10" value="3"></progress><span class="visually-hidden">hidden</span>
        <div class="search-teaser"><span class="tag">tag</span></div><form role="search"><input type="search"><button>Go</button></form>`;
      document.querySelector('main')!.append(probe);
    });
    const shellSelectors = [
      '.site-header', '.site-header__brand', '.site-header__nav a', 'main', '.article__title', '.article__meta', '.tag',
      '.article p:not([data-island] *):not([class*="khs-"] *)', '.site-footer', '.site-footer a', '#shell-probe h2', '#shell-probe p', '#shell-probe mark', '#shell-probe a',
      '#shell-probe button', '#shell-probe li', '#shell-probe ul', '#shell-probe fieldset', '#shell-probe legend',
      '#shell-probe label', '#shell-probe input', '#shell-probe progress', '#shell-probe .visually-hidden',
      '#shell-probe .search-teaser', '#shell-probe .tag', '#shell-probe form',
    ];
    const remoteSheets = await page.evaluate((remoteOrigins) => {
      const sheets = [...document.styleSheets].filter((sheet) => {
        const owner = sheet.ownerNode as HTMLLinkElement | HTMLStyleElement | null;
        const href = sheet.href ?? (owner instanceof HTMLLinkElement ? owner.href : '');
        return remoteOrigins.some((origin) => href.startsWith(origin));
      });
      return sheets.map((sheet) => sheet.href);
    }, Object.values(stack.remotes));
    // The search header, watchlist, survey and widgets remotes all brought their CSS to this page.
    expect(remoteSheets.map((href) => new URL(href!).origin)).toEqual(
      expect.arrayContaining([stack.remotes['mf-search'], stack.remotes['mf-watchlist'], stack.remotes['mf-survey'], stack.remotes['mf-widgets']].map((url) => new URL(url).origin)),
    );
    const withRemotes = await looks(page, shellSelectors);
    await page.evaluate((remoteOrigins) => {
      for (const sheet of document.styleSheets) {
        if (sheet.href && remoteOrigins.some((origin) => sheet.href!.startsWith(origin))) sheet.disabled = true;
      }
    }, Object.values(stack.remotes));
    expect(differences(withRemotes, await looks(page, shellSelectors))).toEqual([]);
  });
});
