// Issue 21, "request bodies and connections at the edge", through the real stack: compressed,
// oversized (chunked), trickling and stalling request bodies each get their clear 4xx at once (or at
// the body deadline), the site goes on (an article, a search, a vote), and bad requests from two
// addresses cannot take the insights proxy's connections from a visitor at a third.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { getSurvey, listArticles } from '@khs/content';
import { DEFAULT_CALL_URLS } from 'contracts';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Body bytes written before the answer came. */
  bytesSentBeforeAnswer: number;
}

interface RawCall {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Chunks written one after another, `gapMs` apart; without a `content-length` header they go chunked. */
  chunks?: Buffer[];
  gapMs?: number;
  /** The client socket's address (loopback range only). */
  localAddress?: string;
  /**
   * Leave the body unfinished after the chunks (the request is never ended): an answer then came
   * from what the server had, before the body's end. A server that waited for the whole body
   * would answer only at its body deadline, with 408.
   */
  keepOpen?: boolean;
}

/**
 * One request on its own connection. Resolves with the answer (the rest of the body is not sent
 * once it came); `abort()` ends a request still waiting.
 */
function rawCall(origin: string, call: RawCall): { answer: Promise<Answer>; answered(): boolean; abort(): void } {
  const request = http.request(new URL(call.path, origin), { method: call.method ?? 'POST', headers: call.headers, agent: false, localAddress: call.localAddress });
  let bytesSent = 0;
  let answered = false;
  let aborted = false;
  const answer = new Promise<Answer>((resolve, reject) => {
    // The shell may answer and close before the whole body went out: that is what is tested.
    request.on('error', (error: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') || request.destroyed ? undefined : reject(error)));
    // A connection closed with no answer at all is a failure to name, not a wait until the test's timeout.
    request.on('close', () => {
      if (!answered && !aborted) reject(new Error(`${call.method ?? 'POST'} ${call.path}: the connection closed after ${bytesSent} body bytes with no answer`));
    });
    request.on('response', (response) => {
      answered = true;
      const bytesSentBeforeAnswer = bytesSent;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), bytesSentBeforeAnswer }),
      );
    });
  });
  const chunks = call.chunks ?? [];
  let index = 0;
  const writeNext = () => {
    if (answered || request.destroyed) return;
    if (index === chunks.length) return call.keepOpen ? undefined : void request.end();
    const chunk = chunks[index++]!;
    bytesSent += chunk.length;
    request.write(chunk);
    setTimeout(writeNext, call.gapMs ?? 0);
  };
  writeNext();
  return {
    answer,
    answered: () => answered,
    abort: () => {
      aborted = true;
      request.destroy();
    },
  };
}

async function csrfOf(origin: string): Promise<{ cookie: string; token: string }> {
  const response = await fetch(new URL(DEFAULT_CALL_URLS.csrfToken, origin));
  return { cookie: response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; '), token: await response.text() };
}

/** A multipart contact form with the token first, as the page's form sends it. */
function contactForm(token: string): { body: Buffer; contentType: string } {
  const boundary = 'KhsEdgeBoundary';
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = `${field('_csrf', token)}${field('name', 'Ada Lovelace')}${field('email', 'ada@example.org')}${field('message', 'A workshop, please.')}--${boundary}--\r\n`;
  return { body: Buffer.from(body), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A valid insights event (one article viewed). */
const insightsEvents = JSON.stringify({
  events: [{ eventType: 'view', eventName: 'Hits Viewed', index: 'competence-articles', userToken: 'e2e-edge-visitor', objectIDs: [listArticles()[0]!.id] }],
});

// A survey no other spec votes on from a fresh browser in the first places (survey.spec: the first two; survey-service: the last).
const surveyArticles = listArticles()
  .filter((article) => article.surveyHandle && getSurvey(article.surveyHandle))
  .filter((article, index, all) => all.findIndex((other) => other.surveyHandle === article.surveyHandle) === index);
const voteArticle = surveyArticles[Math.min(3, surveyArticles.length - 2)]!;
const voteSurvey = getSurvey(voteArticle.surveyHandle!)!;

test.describe('request bodies at the edge', () => {
  test('compressed and oversized chunked bodies get their 4xx before the body ends, a trickling one at the body deadline; then an article, a search and a vote work', async ({ page, stack }) => {
    test.setTimeout(60_000);
    const origin = stack.url;
    const { cookie, token } = await csrfOf(origin);
    const withToken = (headers: Record<string, string>) => ({ cookie, 'x-csrf-token': token, ...headers });

    // A valid gzip body to the watchlist call, with its CSRF token: 415, not a 503.
    await test.step('a gzip watchlist call: 415', async () => {
      const gzipped = gzipSync(JSON.stringify({ storedWatchlist: { articles: { [listArticles()[0]!.id]: { title: 'x' } } } }));
      const watchlist = await rawCall(origin, {
        path: DEFAULT_CALL_URLS.watchlist,
        // 100 bytes declared but never sent: the 415 comes from the headers, before the body's end.
        headers: withToken({ 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(gzipped.length + 100) }),
        chunks: [gzipped],
        keepOpen: true,
      }).answer;
      expect(watchlist.status).toBe(415);
      expect(JSON.parse(watchlist.body)).toEqual({ error: expect.any(String), code: 'unsupported-content-encoding' });
      expect(watchlist.headers['accept-encoding']).toBe('identity');
    });

    // Undecodable br and deflate bodies to insights (no token needed): 415 at once, not 58 s of silence.
    await test.step('br and deflate insights calls: 415', async () => {
      for (const coding of ['br', 'deflate']) {
        const insights = await rawCall(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json', 'content-encoding': coding }, chunks: [Buffer.from('junk')], keepOpen: true }).answer;
        expect({ coding, status: insights.status, code: JSON.parse(insights.body).code }).toEqual({ coding, status: 415, code: 'unsupported-content-encoding' });
      }
    });

    // A gzip contact post: the contact form's own 415 page, at once.
    await test.step('a gzip contact post: the form 415 page', async () => {
      const form = contactForm(token);
      const contactBody = gzipSync(form.body);
      const contact = await rawCall(origin, {
        path: '/contact',
        headers: { cookie, 'content-type': form.contentType, 'content-encoding': 'gzip', 'content-length': String(contactBody.length + 100) },
        chunks: [contactBody],
        keepOpen: true,
      }).answer;
      expect(contact.status).toBe(415);
      expect(contact.headers['content-type']).toMatch(/^text\/html/);
      expect(contact.body).toContain('Your request could not be read');
    });

    // Chunked bodies (no Content-Length) over the edge limit of each proxied call: 413 JSON, not 503.
    await test.step('oversized chunked bodies: 413', async () => {
      const survey = DEFAULT_CALL_URLS.surveySubmit.replace('{formHandle}', voteSurvey.formHandle);
      for (const path of [survey, DEFAULT_CALL_URLS.watchlist, DEFAULT_CALL_URLS.download, DEFAULT_CALL_URLS.insights]) {
        const chunks = Array.from({ length: 20 }, () => Buffer.alloc(16 * 1024, 'x')); // 320 KiB: over every call's limit (≤ 256 KiB)
        const oversized = await rawCall(origin, { path, headers: withToken({ 'content-type': 'application/json' }), chunks, keepOpen: true }).answer;
        expect({ path, status: oversized.status, body: JSON.parse(oversized.body) }).toEqual({ path, status: 413, body: { error: expect.any(String), code: 'FST_ERR_CTP_BODY_TOO_LARGE' } });
      }
    });

    // A body that trickles (1 byte every 400 ms of a declared 100: 40 s) is cut off at the edge's
    // body deadline (REQUEST_BODY_TIMEOUT_MS, 10 s) with 408 JSON, long before it would have ended.
    await test.step('a trickling body: 408 at the body deadline', async () => {
      const trickle = await rawCall(origin, {
        path: DEFAULT_CALL_URLS.insights,
        headers: { 'content-type': 'application/json', 'content-length': '100' },
        chunks: Array.from({ length: 100 }, () => Buffer.from(' ')),
        gapMs: 400,
      }).answer;
      expect(trickle.status).toBe(408);
      expect(JSON.parse(trickle.body)).toEqual({ error: expect.any(String), code: 'request-timeout' });
      expect(trickle.bytesSentBeforeAnswer).toBeLessThan(100);
    });

    // The site goes on: the article page with its islands, a vote, a search.
    await test.step('the site goes on: an article, a vote, a search', async () => {
      await page.goto(new URL(voteArticle.url, origin).href);
      await islandsSettled(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(voteArticle.headline || voteArticle.title);
      const surveyForm = page.locator('.article__survey form.khs-survey');
      const [answer] = voteSurvey.answers as [(typeof voteSurvey.answers)[0]];
      await surveyForm.getByRole('radio', { name: answer.label, exact: true }).check();
      await surveyForm.getByRole('button', { name: 'Vote' }).click();
      await expect(surveyForm).toHaveAttribute('data-phase', 'results');
      await expect(surveyForm.getByRole('meter', { name: answer.label, exact: true })).toHaveAttribute('aria-valuenow', /^\d+$/);

      await page.goto(new URL('/search?q=negotaiting', origin).href);
      await islandsSettled(page);
      const list = page.locator('.khs-search-list');
      await expect(list).toHaveAttribute('data-status', 'idle');
      await expect(list.locator('a[href="/articles/negotiating-with-suppliers"]').first()).toBeVisible();
    });
  });

  test('bad requests to insights from two addresses cannot hold its connections: a visitor at a third is answered while they are held', async ({ stack }) => {
    test.setTimeout(60_000);
    const origin = stack.url;
    const attackers = ['127.0.0.2', '127.0.0.3'];
    const undecodable = (localAddress: string) =>
      rawCall(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, chunks: [Buffer.from('junk')], localAddress });
    // Bodies that would take 200 s: each holds one of its address's in-flight places until aborted
    // or cut off at the body deadline.
    const stalling = (localAddress: string) =>
      rawCall(origin, {
        path: DEFAULT_CALL_URLS.insights,
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
        chunks: Array.from({ length: 1000 }, () => Buffer.from(' ')),
        gapMs: 200,
        localAddress,
      });
    // The 64 stalls, from two addresses, plus 16 stalling bodies each.
    const refusedAtOnce = attackers.flatMap((address) => Array.from({ length: 32 }, () => undecodable(address)));
    let stalls: ReturnType<typeof rawCall>[] = [];
    try {
      const refused = await Promise.all(refusedAtOnce.map(({ answer }) => answer));
      expect(refused.map(({ status }) => status)).toEqual(Array(64).fill(415));
      // Started after the refusals, so the visitor's calls below come well within their body deadline (10 s).
      stalls = attackers.flatMap((address) => Array.from({ length: 16 }, () => stalling(address)));
      // Each address gets 8 requests in flight; its other stalls are refused at once (waited for as
      // answers, not for a time), while 16 stay open.
      const stallAnswers: Answer[] = [];
      for (const { answer } of stalls) void answer.then((value) => stallAnswers.push(value), () => undefined);
      await expect.poll(() => stallAnswers.length).toBeGreaterThanOrEqual(16);
      expect(stallAnswers.map(({ status }) => status)).toEqual(Array(16).fill(429));
      const held = stalls.filter((call) => !call.answered());
      expect(held).toHaveLength(16);

      // Meanwhile, another visitor's insights call from 127.0.0.1 is answered while the 16 stalls
      // still hold their places (an order, not a time: a shared pool would make it wait for them).
      for (let i = 0; i < 3; i += 1) {
        const visitor = await rawCall(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json' }, chunks: [Buffer.from(insightsEvents)], localAddress: '127.0.0.1' }).answer;
        expect(visitor.status).toBe(200);
        expect(held.filter((call) => call.answered())).toHaveLength(0);
      }
    } finally {
      for (const call of [...refusedAtOnce, ...stalls]) call.abort();
    }
  });
});
