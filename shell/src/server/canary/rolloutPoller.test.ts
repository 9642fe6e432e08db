import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RolloutPoller } from './rolloutPoller.js';

let servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

/** An origin on loopback whose rollout.json answer the test changes. */
async function origin() {
  let answer: { status: number; body?: string } = { status: 404 };
  const server = http.createServer((request, response) => {
    if (request.url !== '/mf-search/rollout.json') return response.writeHead(404).end();
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body ?? '');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { entry: `http://127.0.0.1:${port}/mf-search/mf-manifest.json`, set: (next: typeof answer) => (answer = next), stop: () => new Promise((resolve) => server.close(resolve)) };
}

const SPLIT = { stable: '1.0.0+aaaa', canary: { version: '1.1.0+bbbb', share: 0.1, startedAt: '2026-11-26T03:00:00.000Z' }, ended: null };

describe('RolloutPoller', () => {
  it('reads the split beside the live manifest: none on 404, the file when there, none for a broken one, the last one when the origin is away', async () => {
    const site = await origin();
    const lines: string[] = [];
    const poller = new RolloutPoller({ remotes: [{ name: 'mf-search', entry: site.entry }], log: (line) => lines.push(line) });
    expect(poller.rolloutOf('mf-search')).toBeUndefined();
    await poller.pollOnce();
    expect(poller.rolloutOf('mf-search')).toBeNull();
    site.set({ status: 200, body: JSON.stringify(SPLIT) });
    await poller.pollOnce();
    expect(poller.rolloutOf('mf-search')).toEqual(SPLIT);
    site.set({ status: 503 });
    await poller.pollOnce();
    await poller.pollOnce();
    expect(poller.rolloutOf('mf-search')).toEqual(SPLIT);
    expect(lines).toEqual([expect.stringContaining('answered 503; keeping the last one')]);
    site.set({ status: 200, body: JSON.stringify({ ...SPLIT, canary: { ...SPLIT.canary, version: '../../etc' } }) });
    await poller.pollOnce();
    expect(poller.rolloutOf('mf-search')).toBeNull();
    expect(lines.at(-1)).toContain('is not a valid rollout file');
  });
});
