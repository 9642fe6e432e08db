// Issue 33, item 4: a slice joins the site on its own. A sixth slice that exists only as a test
// fixture (e2e/fixtures/slices/mf-proof: its manifest, a tiny remote with one island, a tiny team
// service with one page of its own) is added to a throwaway copy of the checkout as a folder, built
// and deployed with the commands every slice uses (`npm run build -w mf-proof`, `npm run deploy -w
// mf-proof`), and the site started as `npm start -- --no-build` starts it: its island fills the
// article header's actions (server-rendered, then hydrated) and its page is reachable. Then its
// folder goes and the restarted site has neither. No file under shell/ changes at any point, and
// the shell is not rebuilt (its built client runtime is the same files throughout).
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { listArticles } from '@khs/content';
import { expect, test } from '@playwright/test';
import { islandsSettled, watchPage } from '../harness/fixtures.js';
import { commitAll, gitIn, npmIn, startCheckoutSite, type CheckoutSite } from '../harness/checkoutSite.js';
import { REPO_ROOT } from '../harness/stack.js';
import { throwawayCheckout, type ThrowawayCheckout } from '../harness/throwawayCheckout.js';

const SLICE = 'mf-proof';
const FIXTURE = path.join(REPO_ROOT, 'e2e/fixtures/slices', SLICE);
const ISLAND = `[data-island="${SLICE}/ProofAction"]`;
const article = listArticles()[0]!;
const articleTitle = article.title;

let checkout: ThrowawayCheckout | undefined;
let site: CheckoutSite | undefined;
let realShellStatus: string;

/**
 * Renders not cut short by a busy machine (the first server render of a remote can outlast the
 * default budget, and the page then carries the island's placeholder, as designed): what is
 * asserted is where the island is, not how fast.
 */
const PATIENT_RENDERS = { REMOTE_SERVER_TIMEOUT_MS: '10000', ISLAND_RENDER_BUDGET_MS: '20000' };

test.describe.configure({ mode: 'serial' });

/** Every file of `dir` with its size and modification time: the same list means no file was written. */
function fileStamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).split(path.sep).includes('node_modules'))
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const stat = statSync(file);
      return `${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

/** Starts the copy's site (stopping the one before), bounded by the test's own timeout. */
async function restartSite(): Promise<CheckoutSite> {
  await site?.stop();
  site = undefined;
  site = await startCheckoutSite(checkout!.root, PATIENT_RENDERS);
  return site;
}

test.beforeAll(() => {
  // A copy of the checkout and a commit of it: seconds on a quiet machine, far more on a busy one.
  test.setTimeout(300_000);
  realShellStatus = gitIn(REPO_ROOT, ['status', '--porcelain', '--', 'shell/']);
  checkout = throwawayCheckout(REPO_ROOT, 'khs-slice-joins-');
  commitAll(checkout.root);
});

test.afterAll(async () => {
  test.setTimeout(120_000);
  await site?.stop();
  checkout?.remove();
  // The real checkout: nothing of this test touched it (another spec may run beside this one).
  expect(gitIn(REPO_ROOT, ['status', '--porcelain', '--', 'shell/'])).toBe(realShellStatus);
});

test('a sixth slice joins with its folder alone: built and deployed like any, its island on articles and its page on the site, then removed; shell/ untouched', async ({ page }) => {
  // Two starts of the whole site (and a build): minutes on a busy machine; every wait below is on what the site shows.
  test.setTimeout(1_500_000);
  const root = checkout!.root;
  const shellFilesBefore = fileStamps(path.join(root, 'shell'));
  expect(gitIn(root, ['status', '--porcelain', '--', 'shell/'])).toBe('');

  // The team adds its folder: nothing else of the checkout changes.
  cpSync(FIXTURE, path.join(root, SLICE), { recursive: true });
  expect(gitIn(root, ['status', '--porcelain', '--untracked-files=normal'])).toBe(`?? ${SLICE}/\n`);
  // It is a workspace by being there (the root's workspace globs), which is what `-w` needs.
  npmIn(root, ['run', 'build', '-w', SLICE]);
  const deployed = npmIn(root, ['run', 'deploy', '-w', SLICE]);
  expect(deployed).toContain(`published and live in ${path.join(root, '.origins', SLICE)}`);

  const joined = await restartSite();
  const articleUrl = new URL(article.url, joined.url).href;
  // On the server: the island's own render in the article header (after a start the shell warms
  // the remotes up first, and a page asked for meanwhile has the placeholder).
  const headerOf = (html: string) => {
    const start = html.indexOf('<header class="article__header"');
    return start < 0 ? '' : html.slice(start, html.indexOf('</header>', start));
  };
  await expect
    .poll(async () => headerOf(await (await fetch(articleUrl)).text()), { timeout: 180_000, message: 'the article header holds the proof island, rendered on the server' })
    .toMatch(new RegExp(`data-island="${SLICE}/ProofAction"[^]*?<button[^>]*class="proof-action"[^>]*data-hydrated="false"[^>]*>Proof for “[^<]+”: 0 presses</button>`));

  // In the browser: the same element, hydrated (React took over the server's button), and it works.
  const problems = watchPage(page);
  const articleResponse = await page.goto(articleUrl);
  expect(headerOf(await articleResponse!.text()), 'the page the browser got has the server render to hydrate').toContain('class="proof-action"');
  await islandsSettled(page);
  const action = page.locator(`.article__header ${ISLAND}.article__proof`).getByRole('button', { name: `Proof for “${articleTitle}”: 0 presses` });
  await expect(action).toHaveAttribute('data-hydrated', 'true');
  await expect(page.locator(`.article__header ${ISLAND}`)).toHaveAttribute('data-island-state', 'mounted');
  await action.click();
  await expect(page.locator(`.article__header ${ISLAND}`).getByRole('button')).toHaveText(`Proof for “${articleTitle}”: 1 press`);
  // The other islands of the header are still there, before it (order 90 in its manifest).
  await expect(page.locator('.article__header [data-island]').last()).toHaveAttribute('data-island', `${SLICE}/ProofAction`);

  // Its page: composed by the shell from its service's fragment, in the site's layout, its island hydrated.
  const proofResponse = await page.goto(new URL('/proof', joined.url).href);
  expect(proofResponse?.status()).toBe(200);
  await islandsSettled(page);
  await expect(page.getByRole('heading', { level: 1, name: 'A page of the proof slice' })).toBeVisible();
  await expect(page.locator('header.site-header, .site-header').first()).toBeVisible();
  await expect(page.locator(`${ISLAND} button.proof-action`)).toHaveAttribute('data-hydrated', 'true');
  expect(problems.errors).toEqual([]);
  expect(problems.failedResponses).toEqual([]);

  // The team removes its folder; the site, started again, has neither the island nor the page.
  rmSync(path.join(root, SLICE), { recursive: true, force: true });
  const left = await restartSite();
  const after = await (await fetch(new URL(article.url, left.url))).text();
  expect(after).toContain('class="article__header"');
  expect(after).not.toContain(`${SLICE}/`);
  expect((await fetch(new URL('/proof', left.url))).status).toBe(404);

  // Throughout: no file under shell/ changed, none was written (no rebuild), and the copy is as it was.
  expect(gitIn(root, ['status', '--porcelain', '--', 'shell/'])).toBe('');
  expect(fileStamps(path.join(root, 'shell'))).toEqual(shellFilesBefore);
  expect(gitIn(root, ['status', '--porcelain'])).toBe('');
});
