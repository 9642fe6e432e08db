import { describe, expect, it } from 'vitest';
import type { FullSearchListModule } from './SearchList.js';
import { loadFullSearchList } from './loadFullSearchList.js';

const island = { mountFullSearchList: async () => () => {} } satisfies FullSearchListModule;

describe('loadFullSearchList', () => {
  it('evaluates each part in a task of its own, in order, and the island last: a task waiting meanwhile (a key) runs between them', async () => {
    const log: string[] = [];
    /** A part whose evaluation queues another task (as a key pressed during it would). */
    const part = (name: string) => async () => {
      log.push(name);
      setTimeout(() => log.push(`task queued during ${name}`), 0);
    };
    const loaded = await loadFullSearchList([part('renderer'), part('components'), part('client')], async () => {
      log.push('island');
      return island;
    });
    expect(loaded).toBe(island);
    expect(log).toEqual([
      'renderer',
      'task queued during renderer',
      'components',
      'task queued during components',
      'client',
      'task queued during client',
      'island',
    ]);
  });

  it('does not start the island before its parts (an import evaluates as soon as its chunks are there)', async () => {
    let islandStarted = false;
    let finishPart!: () => void;
    const loading = loadFullSearchList(
      [() => new Promise<void>((resolve) => (finishPart = resolve))],
      async () => {
        islandStarted = true;
        return island;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(islandStarted).toBe(false);
    finishPart();
    await expect(loading).resolves.toBe(island);
    expect(islandStarted).toBe(true);
  });

  it('fails as the island would when a part cannot load (the binding then keeps the list working natively)', async () => {
    let islandStarted = false;
    const failure = new Error('chunk failed');
    await expect(
      loadFullSearchList([() => Promise.reject(failure)], async () => {
        islandStarted = true;
        return island;
      }),
    ).rejects.toBe(failure);
    expect(islandStarted).toBe(false);
  });
});
