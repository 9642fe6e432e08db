import { describe, expect, it } from 'vitest';
import { remoteOfIsland } from './Layout.js';

describe('remoteOfIsland', () => {
  it('reads the remote of an island name a template places', () => {
    expect(remoteOfIsland('mf-a/SomeModule')).toBe('mf-a');
  });

  it('refuses what is not an island name, so a typo fails at start instead of preloading nothing', () => {
    expect(() => remoteOfIsland('mf-a')).toThrow('not an island name: mf-a');
  });
});
