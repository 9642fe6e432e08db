// Issue 21: no request takes the site down. A page on another origin cannot use the search
// server's admin routes with any key the stack created (not even with simple requests that need no
// preflight), an indexed `javascript:` url never becomes a link, and a query the search server
// refuses is the visitor's problem, not a failure of mf-search.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getSurvey, listArticles } from '@khs/content';
import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import type { Page } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { ADMIN_API_KEY, logText, SEARCH_API_KEY, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

const OPERATOR_TOKEN = 'search-abuse-operator-token-0123456789';
const COLLECTION = DEFAULT_SEARCH_INDEX_NAME;
const [victim] = listArticles();
const surveyArticle = listArticles().find((article) => article.surveyHandle && getSurvey(article.surveyHandle))!;
/** The list's text for a refused search (mf-search `REFUSED_SEARCH_TEXT`). */
const REFUSED_TEXT = 'This search could not be run. Try fewer or shorter words.';
const THIRTEEN_WORDS = 'a+b+c+d+e+f+g+h+i+j+k+l+m';

const shellLog: string[] = [];
let stack: Stack;
let elsewhere: http.Server;
let elsewhereOrigin: string;

test.beforeAll(async () => {
  test.setTimeout(STACK_START_TIMEOUT_MS);
  stack = await startStack({ log: (line) => shellLog.push(logText(line)), env: { OPERATOR_TOKEN } });
  // Another site: a page on its own loopback origin, not one the search server allows.
  elsewhere = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><head><title>Another site</title></head><body><p>Another site</p></body></html>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereOrigin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await stack?.close();
  await new Promise<void>((resolve) => (elsewhere ? elsewhere.close(() => resolve()) : resolve()));
});

/** A request to the search server from this test process (server-to-server: no Origin, no Sec-Fetch-Site). */
async function searchServer(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${stack.searchUrl}${path}`, {
    method,
    headers: { 'x-typesense-api-key': ADMIN_API_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

const refusals = async (): Promise<number> => (await searchServer('GET', '/stats.json')).json.responses['403'] ?? 0;

async function remoteFailures(name: string): Promise<{ browser: Record<string, number>; server: Record<string, number> }> {
  const response = await fetch(new URL('/health/remotes.json', stack.url), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const body = (await response.json()) as { remotes: Array<{ name: string; failures: { browser: Record<string, number>; server: Record<string, number> } }> };
  // Failures only: the page views per build (`views`, the canary's denominator) grow with every page.
  const { browser, server } = body.remotes.find((remote) => remote.name === name)!.failures;
  return { browser, server };
}

const plantedDocument = (id: string, url: string) => ({
  id,
  headline: `Planted ${id} zqxplanted`,
  title: `Planted ${id} zqxplanted`,
  intro: 'A document an attacker planted.',
  content: 'zqxplanted',
  image: '/content-images/planted.svg',
  url,
  cta: 'Open',
  topic: ['Planted'],
  date: 1_700_000_000,
  readingTime: 1,
});

/** Links and sources on the page whose URL is not http(s) (what a browser would follow or load). */
const unsafeLinks = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[href], [src]')]
      .map((element) => element.getAttribute('href') ?? element.getAttribute('src') ?? '')
      .filter((value) => !['http:', 'https:'].includes(new URL(value, document.baseURI).protocol)),
  );

test.describe.configure({ mode: 'serial' });

test('a page on another origin can neither read schemas, write nor delete with any key the stack created', async ({ page }) => {
  const before = await refusals();
  await page.goto(elsewhereOrigin);
  const attempts = await page.evaluate(
    async ({ searchUrl, keys, collection, victimId, planted }) => {
      const outcomes: string[] = [];
      const inQuery = (key: string) => `x-typesense-api-key=${encodeURIComponent(key)}`;
      for (const [keyName, key] of Object.entries(keys)) {
        const tries: Record<string, () => Promise<Response>> = {
          'read schemas, key in a header': () => fetch(`${searchUrl}/collections`, { headers: { 'X-TYPESENSE-API-KEY': key } }),
          'read schemas, key in the query': () => fetch(`${searchUrl}/collections?${inQuery(key)}`),
          'read the schema': () => fetch(`${searchUrl}/collections/${collection}?${inQuery(key)}`),
          'upsert, JSON': () =>
            fetch(`${searchUrl}/collections/${collection}/documents?action=upsert`, {
              method: 'POST',
              headers: { 'X-TYPESENSE-API-KEY': key, 'content-type': 'application/json' },
              body: JSON.stringify({ ...planted, id: `${keyName}-json` }),
            }),
          'upsert, text/plain with the key in the query (no preflight)': () =>
            fetch(`${searchUrl}/collections/${collection}/documents?action=upsert&${inQuery(key)}`, {
              method: 'POST',
              headers: { 'content-type': 'text/plain' },
              body: JSON.stringify({ ...planted, id: `${keyName}-plain` }),
            }),
          'delete a document': () => fetch(`${searchUrl}/collections/${collection}/documents/${victimId}?${inQuery(key)}`, { method: 'DELETE' }),
          'drop the collection': () => fetch(`${searchUrl}/collections/${collection}?${inQuery(key)}`, { method: 'DELETE' }),
        };
        for (const [name, attempt] of Object.entries(tries)) {
          try {
            const response = await attempt();
            outcomes.push(`${keyName} key, ${name}: read ${response.status} ${await response.text()}`);
          } catch {
            outcomes.push(`${keyName} key, ${name}: blocked`);
          }
        }
      }
      // Requests a page can send without reading the answer: they must not act either.
      await fetch(`${searchUrl}/collections/${collection}/documents?action=upsert&${inQuery(keys.admin)}`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ ...planted, id: 'no-cors' }),
      });
      await fetch(`${searchUrl}/collections/${collection}/documents/import?action=upsert&${inQuery(keys.admin)}`, {
        method: 'POST',
        mode: 'no-cors',
        body: JSON.stringify({ ...planted, id: 'no-cors-import' }),
      });
      navigator.sendBeacon(`${searchUrl}/collections/${collection}/documents?action=upsert&${inQuery(keys.admin)}`, new Blob([JSON.stringify({ ...planted, id: 'beacon' })], { type: 'text/plain' }));
      return outcomes;
    },
    { searchUrl: stack.searchUrl, keys: { admin: ADMIN_API_KEY, search: SEARCH_API_KEY }, collection: COLLECTION, victimId: victim!.id, planted: plantedDocument('x', '/articles/x') },
  );
  expect(attempts).toHaveLength(14);
  expect(attempts.filter((outcome) => !outcome.endsWith(': blocked'))).toEqual([]);
  // Blocked by the search server, not only hidden by the browser: each of them (the request or its
  // preflight, the no-cors requests and the beacon) got a 403.
  await expect.poll(async () => (await refusals()) - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(attempts.length + 3);
  for (const id of ['admin-json', 'admin-plain', 'search-json', 'search-plain', 'no-cors', 'no-cors-import', 'beacon']) {
    expect({ id, status: (await searchServer('GET', `/collections/${COLLECTION}/documents/${id}`)).status }).toEqual({ id, status: 404 });
  }
  expect((await searchServer('GET', `/collections/${COLLECTION}/documents/${victim!.id}`)).status).toBe(200);
  expect((await searchServer('GET', `/collections/${COLLECTION}`)).json.name).toBe(COLLECTION);
});

test("a search from the site's own origin still works, answered for that origin only", async ({ page, problems }) => {
  await page.goto(new URL('/search', stack.url).href);
  await islandsSettled(page);
  const answer = page.waitForResponse((response) => response.url().startsWith(stack.searchUrl) && response.request().method() === 'POST');
  const box = page.locator('.khs-search-list').getByRole('combobox');
  await box.fill('negotiation');
  await box.press('Enter');
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(response.headers()['access-control-allow-origin']).toBe(new URL(stack.url).origin);
  await expect(page.locator('.khs-search-list .khs-search-teaser').first()).toBeVisible();
  expect(problems.failedResponses).toEqual([]);
});

test('an indexed javascript: url never reaches a page as a link, in the server HTML or hydrated', async ({ page }) => {
  // As an attacker who has the admin key on the server would: upserted directly, past the indexer.
  const upsert = await searchServer('POST', `/collections/${COLLECTION}/documents?action=upsert`, plantedDocument('planted-js', 'javascript:alert(document.domain)'));
  expect(upsert.status).toBe(201);
  // Warm-up: the shell has loaded mf-search's server build (a page asked for before gets the
  // shell's placeholder form, not the list: seen on a loaded CI run).
  await expect.poll(async () => (await (await fetch(new URL('/search?q=negotiation', stack.url))).text()).includes('khs-search-teaser'), { timeout: 20_000 }).toBe(true);
  const path = '/search?q=zqxplanted';
  const html = await (await fetch(new URL(path, stack.url))).text();
  expect(html).toContain('Planted planted-js');
  expect(html).toContain('khs-search-teaser__unlinked');
  expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*javascript:/i);
  await page.goto(new URL(path, stack.url).href);
  await islandsSettled(page);
  await expect(page.locator('[data-island="mf-search/SearchList"]')).toHaveAttribute('data-island-state', 'mounted');
  const teaser = page.locator('.khs-search-teaser', { hasText: 'Planted planted-js' });
  await expect(teaser).toHaveCount(1);
  await expect(teaser.locator('a')).toHaveCount(0);
  expect(await unsafeLinks(page)).toEqual([]);
  expect((await searchServer('DELETE', `/collections/${COLLECTION}/documents/planted-js`)).status).toBe(200);
});

test('a query the search server refuses renders the search island, logs no stack and counts no failure; the site keeps working', async ({ page, problems }) => {
  // Warm-up: the shell has loaded mf-search's server build (a page asked for before gets placeholders).
  await expect.poll(async () => (await (await fetch(new URL('/search?q=negotiation', stack.url))).text()).includes('khs-search-teaser'), { timeout: 20_000 }).toBe(true);
  const failuresBefore = await remoteFailures('mf-search');
  const logMark = shellLog.length;

  const path = `/search?q=${THIRTEEN_WORDS}`;
  const response = await fetch(new URL(path, stack.url));
  expect(response.status).toBe(200);
  const html = await response.text();
  // The island itself (with its list), not the shell's placeholder form.
  expect(html).toMatch(/data-island="mf-search\/SearchList"[^>]*>(?:(?!data-island=)[\s\S])*?<section class="khs-search-list"/);
  await page.goto(new URL(path, stack.url).href);
  await islandsSettled(page);
  const island = page.locator('[data-island="mf-search/SearchList"]');
  await expect(island).toHaveAttribute('data-island-state', 'mounted');
  // Either the engine answers long queries (bounded typo work), or the list says why it could not.
  const list = island.locator('.khs-search-list');
  await expect(list).toHaveAttribute('data-status', 'idle');
  const refused = (await list.getAttribute('data-refused')) === 'true';
  if (refused) await expect(list.getByRole('status')).toHaveText(REFUSED_TEXT);
  else await expect(list).not.toHaveAttribute('data-refused', /.*/);

  const logged = shellLog.slice(logMark);
  expect(logged.filter((line) => /^\s+at /m.test(line))).toEqual([]);
  expect(logged.filter((line) => /KHS-ISLAND-\d+ remote "mf-search"/.test(line))).toEqual([]);
  expect(await remoteFailures('mf-search')).toEqual(failuresBefore);
  expect(problems.errors).toEqual([]);

  // The rest of the site: an article page, a search and a vote.
  await page.goto(new URL(victim!.url, stack.url).href);
  await islandsSettled(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(victim!.headline || victim!.title);
  await page.goto(new URL('/search?q=negotiation', stack.url).href);
  await islandsSettled(page);
  await expect(page.locator('.khs-search-list .khs-search-teaser').first()).toBeVisible();
  await page.goto(new URL(surveyArticle.url, stack.url).href);
  await islandsSettled(page);
  const form = page.locator('.article__survey form.khs-survey');
  const survey = getSurvey(surveyArticle.surveyHandle!)!;
  await form.getByRole('radio', { name: survey.answers[0]!.label, exact: true }).check();
  await form.getByRole('button', { name: 'Vote' }).click();
  await expect(form).toHaveAttribute('data-phase', 'results');
  expect(await remoteFailures('mf-search')).toEqual(failuresBefore);
});

test.describe('the refused-query state', () => {
  // axe is injected as an inline script, which the site's CSP (rightly) refuses.
  test.use({ bypassCSP: true });

  test('is axe-core clean', async ({ page }) => {
    await page.goto(new URL(`/search?q=${THIRTEEN_WORDS}`, stack.url).href);
    await islandsSettled(page);
    await expect(page.locator('[data-island="mf-search/SearchList"]')).toHaveAttribute('data-island-state', 'mounted');
    expect(await axeViolations(page)).toEqual([]);
  });
});
