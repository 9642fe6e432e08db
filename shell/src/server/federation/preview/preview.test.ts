import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { describe, expect, it } from 'vitest';
import { previewLink } from '@khs/deploy/preview-link';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { PreviewMarker } from '../../pages/PreviewMarker.js';
import { currentRequestVersions, requestVersions } from '../requestVersions.js';
import { PREVIEW_COOKIE_NAME, activePreviews, encodePreviewCookie } from './previewCookie.js';
import { previewRoutes } from './previewRoutes.js';
import { previewSelectionPlugin } from './previewSelectionPlugin.js';

const SECRET = 'operators-preview-secret-0123';
const NOW = 1_800_000_000_000;
const HOUR = 60 * 60 * 1000;

function linkQuery(remote: string, version: string, options: { secret?: string; expires?: number } = {}): string {
  const link = new URL(previewLink({ site: 'http://site.test', remote, version, secret: options.secret ?? SECRET, now: NOW, ...(options.expires ? { expires: options.expires } : {}) }));
  return `${link.pathname}${link.search}`;
}

async function site(now = () => NOW, warm?: (remote: string, version: string) => Promise<void>) {
  const app = Fastify();
  await app.register(fastifyCookie);
  await app.register(requestVersions, { plugins: [previewSelectionPlugin(SECRET)], remotes: ['mf-search', 'mf-survey'], log: { error: () => {} }, now });
  await app.register(previewRoutes, { secret: SECRET, remotes: ['mf-search', 'mf-survey'], now, ...(warm ? { warm } : {}) });
  // What a page renders: the choices and the marker.
  app.get('/', async (_request, reply) => {
    const choices = Object.fromEntries([...(currentRequestVersions()?.choices ?? [])].map(([remote, choice]) => [remote, choice.version]));
    return reply.type('text/html').send(`${JSON.stringify(choices)}${renderToStaticMarkup(createElement(PreviewMarker))}`);
  });
  return app;
}

/** The cookie a browser keeps from an answer's `Set-Cookie`. */
function cookieOf(answer: { cookies: Array<{ name: string; value: string }> }): string {
  return answer.cookies.find((cookie) => cookie.name === PREVIEW_COOKIE_NAME)!.value;
}

describe('remote previews', () => {
  it('a valid link sets an HttpOnly cookie until it expires and sends the browser home, where that remote renders the preview build, with the marker', async () => {
    const app = await site(() => NOW);
    const opened = await app.inject({ url: linkQuery('mf-search', '0.2.0+cafe') });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/');
    expect(opened.headers['cache-control']).toBe('no-store');
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toContain(`Max-Age=${24 * 60 * 60}`);
    const page = await app.inject({ url: '/', cookies: { [PREVIEW_COOKIE_NAME]: cookieOf(opened) } });
    expect(page.body).toContain('{"mf-search":"0.2.0+cafe","mf-survey":null}');
    expect(page.body).toContain('<aside class="preview-marker" aria-label="Preview" data-preview-marker="">');
    expect(page.body).toContain('<strong>mf-search</strong> at <code>0.2.0+cafe</code>');
    expect(page.body).toContain('<form action="/__preview/end" method="post"><button type="submit" class="preview-marker__end">End preview</button></form>');
    // Without the cookie: live, no marker.
    const live = await app.inject({ url: '/' });
    expect(live.body).toBe('{"mf-search":null,"mf-survey":null}');
    await app.close();
  });

  it('keeps several remotes previewed at once; a second link of the same remote replaces the first', async () => {
    const app = await site();
    const first = cookieOf(await app.inject({ url: linkQuery('mf-search', '0.2.0+aaaa') }));
    const second = cookieOf(await app.inject({ url: linkQuery('mf-survey', '0.3.0+bbbb'), cookies: { [PREVIEW_COOKIE_NAME]: first } }));
    const third = cookieOf(await app.inject({ url: linkQuery('mf-search', '0.2.1+cccc'), cookies: { [PREVIEW_COOKIE_NAME]: second } }));
    const page = await app.inject({ url: '/', cookies: { [PREVIEW_COOKIE_NAME]: third } });
    expect(page.body).toContain('{"mf-search":"0.2.1+cccc","mf-survey":"0.3.0+bbbb"}');
    await app.close();
  });

  it('refuses a forged, changed, expired or foreign link with a 403 and no cookie', async () => {
    const app = await site();
    const good = linkQuery('mf-search', '0.2.0+aaaa');
    const cases: Array<[string, RegExp]> = [
      [linkQuery('mf-search', '0.2.0+aaaa', { secret: 'someone-elses-secret-000' }), /signature/],
      [good.replace('0.2.0%2Baaaa', '0.2.0%2Bbbbb'), /signature/],
      [good.replace(/sig=[^&]+/, 'sig=x'), /signature/],
      [linkQuery('mf-search', '0.2.0+aaaa', { expires: NOW - 1 }), /expired/],
      [linkQuery('mf-other', '0.2.0+aaaa'), /no remote/],
      ['/__preview', /no remote/],
      ['/__preview?remote=mf-search&version=../../x&expires=abc&sig=', /signature/],
    ];
    for (const [url, why] of cases) {
      const answer = await app.inject({ url });
      expect(answer.statusCode, url).toBe(403);
      expect(answer.body, url).toMatch(why);
      expect(answer.headers['set-cookie'], url).toBeUndefined();
    }
    await app.close();
  });

  it('ignores a tampered or expired cookie: the page renders live', async () => {
    const app = await site();
    const cookie = cookieOf(await app.inject({ url: linkQuery('mf-search', '0.2.0+aaaa') }));
    const [entry] = JSON.parse(Buffer.from(cookie, 'base64url').toString()) as Array<Record<string, unknown>>;
    const tampered = encodePreviewCookie([{ ...entry, version: '0.9.9+evil' } as never]);
    for (const value of [tampered, 'not-base64-json', encodePreviewCookie([])]) {
      expect((await app.inject({ url: '/', cookies: { [PREVIEW_COOKIE_NAME]: value } })).body).toBe('{"mf-search":null,"mf-survey":null}');
    }
    await app.close();
    const later = await site(() => NOW + 25 * HOUR);
    expect(activePreviews(cookie, SECRET, NOW + 25 * HOUR)).toEqual([]);
    expect((await later.inject({ url: '/', cookies: { [PREVIEW_COOKIE_NAME]: cookie } })).body).toBe('{"mf-search":null,"mf-survey":null}');
    await later.close();
  });

  it('the marker\'s button ends every preview', async () => {
    const app = await site();
    // As the marker's form sends it: an empty urlencoded body.
    const ended = await app.inject({ method: 'POST', url: '/__preview/end', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(ended.statusCode).toBe(303);
    expect(String(ended.headers['set-cookie'])).toMatch(new RegExp(`^${PREVIEW_COOKIE_NAME}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970`));
    await app.close();
  });

  it('warms the previewed build up on the server before sending the browser to it; a failing warm-up still opens the preview', async () => {
    const events: string[] = [];
    const app = await site(() => NOW, async (remote, version) => {
      events.push(`warm ${remote} ${version}`);
      if (version.endsWith('bad')) throw new Error('not published');
    });
    const opened = await app.inject({ url: linkQuery('mf-search', '0.2.0+cafe') });
    events.push(`answered ${opened.statusCode}`);
    expect(events).toEqual(['warm mf-search 0.2.0+cafe', 'answered 303']);
    expect((await app.inject({ url: linkQuery('mf-search', '0.2.0+bad') })).statusCode).toBe(303);
    await app.close();
  });
});
