import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEV_EVENTS_PATH, DEV_LOOP_TOKEN_ENV, devRebuiltPath } from '@khs/stack/devProtocol';
import { buildTestApp } from '../testing/buildTestApp.js';
import { devLoopFeature, readDevLoopToken } from './devLoopRoutes.js';

const TOKEN = 'dev-loop-token-for-tests-0123456789';
const REMOTES = ['mf-search', 'mf-survey'];

/** A stand-in for the server federation: one poll swaps mf-survey to `next`. */
function fakeFederation(next = '0.1.0+bbbbbbbbbbbb') {
  let current = '0.1.0+aaaaaaaaaaaa';
  const calls: string[] = [];
  return {
    calls,
    revalidate: vi.fn(async () => {
      calls.push('revalidate');
      current = next;
    }),
    preload: vi.fn(async (_onError: undefined, remote: string) => {
      calls.push(`preload ${remote}`);
    }),
    pollStates: () => [{ remote: 'mf-survey', buildVersion: current, manifestUrl: 'http://127.0.0.1:4312/mf-manifest.json' }, { remote: 'mf-search' }],
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('dev loop routes', () => {
  it('are off without KHS_DEV_LOOP_TOKEN (production): no feature, both paths the site 404', async () => {
    expect(readDevLoopToken({})).toBeUndefined();
    expect(readDevLoopToken({ [DEV_LOOP_TOKEN_ENV]: '   ' })).toBeUndefined();
    const federation = fakeFederation();
    const features = devLoopFeature(federation, REMOTES, { NODE_ENV: 'production' });
    expect(features).toEqual([]);
    ({ app } = await buildTestApp({ features }));
    expect((await app.inject({ method: 'GET', url: DEV_EVENTS_PATH })).statusCode).toBe(404);
    const notice = await app.inject({ method: 'POST', url: devRebuiltPath('mf-survey'), headers: { authorization: `Bearer ${TOKEN}` } });
    // What any unknown POST gets (the CSRF check answers first), not the dev route's 401/200.
    const unknownPost = await app.inject({ method: 'POST', url: '/__khs-dev/nothing-here', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(notice.statusCode).toBe(unknownPost.statusCode);
    expect(notice.body).toBe(unknownPost.body);
    expect(federation.revalidate).not.toHaveBeenCalled();
  });

  it('refuse a rebuild notice without the token or with another one (401), and an unknown remote (404)', async () => {
    const federation = fakeFederation();
    ({ app } = await buildTestApp({ features: devLoopFeature(federation, REMOTES, { [DEV_LOOP_TOKEN_ENV]: TOKEN }) }));
    const missing = await app.inject({ method: 'POST', url: devRebuiltPath('mf-survey') });
    expect(missing.statusCode).toBe(401);
    const wrong = await app.inject({ method: 'POST', url: devRebuiltPath('mf-survey'), headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'dev-loop-token' });
    const unknown = await app.inject({ method: 'POST', url: devRebuiltPath('mf-nothing'), headers: { authorization: `Bearer ${TOKEN}` } });
    expect(unknown.statusCode).toBe(404);
    expect(federation.revalidate).not.toHaveBeenCalled();
  });

  it('reload the remote at once (poll, then warm-up) and tell the open pages, after the shell renders with the new build', async () => {
    const federation = fakeFederation('0.1.0+cccccccccccc');
    ({ app } = await buildTestApp({ features: devLoopFeature(federation, REMOTES, { [DEV_LOOP_TOKEN_ENV]: TOKEN }) }));
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });

    const events = await fetch(new URL(DEV_EVENTS_PATH, origin));
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = events.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const nextEvent = async () => {
      while (!received.includes('event: rebuilt')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        received += decoder.decode(value);
      }
      return received;
    };
    // The stream is open (its first comment arrived) before the notice.
    const first = await reader.read();
    received += decoder.decode(first.value);

    const notice = await fetch(new URL(devRebuiltPath('mf-survey'), origin), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(notice.status).toBe(200);
    expect(await notice.json()).toEqual({ remote: 'mf-survey', buildVersion: '0.1.0+cccccccccccc', pages: 1 });
    expect(federation.calls).toEqual(['revalidate', 'preload mf-survey']);
    const stream = await nextEvent();
    expect(stream).toContain(
      `event: rebuilt\ndata: ${JSON.stringify({ remote: 'mf-survey', buildVersion: '0.1.0+cccccccccccc', manifestUrl: 'http://127.0.0.1:4312/mf-manifest.json' })}\n\n`,
    );
    await reader.cancel();
  });
});
