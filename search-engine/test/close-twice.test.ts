import { expect, it } from 'vitest';
import { startSearchServer } from '../src/index.js';

it('closes once however often close() is called: a second call resolves with the first (a node closed mid-test, then in afterAll)', async () => {
  const server = await startSearchServer({ port: 0, adminApiKey: 'close-twice-key', workers: 1, log: () => {} });
  const first = server.close();
  await first;
  const outcome = await Promise.race([server.close().then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000))]);
  expect(outcome).toBe('closed');
  await expect(fetch(`${server.url}/health`)).rejects.toThrow();
}, 30_000);
