import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, http, search, type Target, startTarget } from './support/target.js';

// Embedded only: the supervisor of the embedded server's process.
describe.runIf(!process.env.TYPESENSE_URL)('supervisor: a killed search server comes back with its data', () => {
  let target: Target;
  let articles: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_RESTART_BACKOFF_MS: '300' });
    articles = await createArticleCollection(target, 'supervised');
  });
  afterAll(async () => {
    await target.close();
  });

  it('restarts the killed process on the same port and reloads the data folder, twice in a row with back-off', async () => {
    const supervised = target.process!;
    const before = await search(target, articles, { q: 'leadership', query_by: 'title,content' });
    expect(before.found).toBeGreaterThan(0);
    // A write that only the change log holds (the killed process never folds it).
    expect((await http(target.url, 'DELETE', `/collections/${articles}/documents/a1`, { key: target.adminKey })).status).toBe(200);

    const restartTimes: number[] = [];
    for (let round = 0; round < 2; round++) {
      const killed = supervised.pid() as number;
      const next = supervised.nextStart();
      const killedAt = performance.now();
      process.kill(killed, 'SIGKILL');
      // While it is down the port answers nothing (a browser's search shows its error state).
      await expect(fetch(`${target.url}/health`)).rejects.toThrow();
      const pid = await next;
      restartTimes.push(performance.now() - killedAt);
      expect(pid).not.toBe(killed);
      expect((await http(target.url, 'GET', '/health')).json).toEqual({ ok: true });
      const after = await search(target, articles, { q: 'leadership', query_by: 'title,content' });
      expect(after.found).toBe(before.found - 1);
      expect((await http(target.url, 'GET', `/collections/${articles}/documents/a1`, { key: target.adminKey })).status).toBe(404);
    }
    expect(supervised.restarts()).toBe(2);
    // The second crash in a row waits longer (back-off 300 ms, then 600 ms).
    expect(target.logs.filter((line) => line.includes('restarting in'))).toEqual([
      expect.stringContaining('restarting in 300 ms'),
      expect.stringContaining('restarting in 600 ms'),
    ]);
    expect(restartTimes[1]).toBeGreaterThan(600);
  }, 60_000);
});
