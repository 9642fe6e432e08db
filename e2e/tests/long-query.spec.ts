import { listArticles } from '@khs/content';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

/**
 * Issue 21: a visitor's search of more than 12 words got the search engine's word-limit
 * refusal; Typesense has no such limit (it bounds the typo and drop-words work of a long
 * query instead), and neither has the embedded engine now.
 */
test('a search of twenty words from an article lists that article', async ({ page, stack, problems }) => {
  const article = listArticles()[0];
  if (!article) throw new Error('no seeded article');
  const words = article.intro.split(/\s+/).slice(0, 20);
  expect(words).toHaveLength(20);
  await page.goto(new URL(`/search?q=${encodeURIComponent(words.join(' '))}`, stack.url).href);
  await islandsSettled(page);
  const list = page.locator('.khs-search-list');
  await expect(list).toHaveAttribute('data-status', 'idle');
  await expect(list.locator(`.khs-search-teaser a[href="${article.url}"]`).first()).toBeVisible();
  expect(problems.failedResponses).toEqual([]);
});
