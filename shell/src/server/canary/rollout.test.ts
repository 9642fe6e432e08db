import { describe, expect, it } from 'vitest';
import { parseRollout, rolloutUrl } from './rollout.js';

describe('parseRollout', () => {
  it('accepts the file tooling/deploy writes', () => {
    const file = {
      stable: '1.0.0+aaaa',
      canary: { version: '1.1.0+bbbb', share: 0.1, startedAt: '2026-11-26T03:00:00.000Z' },
      ended: { version: '0.9.0+cccc', outcome: 'aborted', reason: 'looks wrong', at: '2026-11-25T03:00:00.000Z' },
    };
    expect(parseRollout(file)).toEqual(file);
    expect(parseRollout({ stable: '1.0.0+aaaa', canary: null, ended: null })).toEqual({ stable: '1.0.0+aaaa', canary: null, ended: null });
  });

  it('refuses what could send visitors to a made-up place: a version leaving its folder, a share out of range, no date', () => {
    const canary = (patch: object) => ({ stable: '1.0.0+aaaa', canary: { version: '1.1.0+bbbb', share: 0.1, startedAt: '2026-11-26T03:00:00.000Z', ...patch }, ended: null });
    for (const bad of [null, 'x', { stable: '../etc' }, canary({ version: '../../x' }), canary({ share: 1.5 }), canary({ share: '0.1' }), canary({ startedAt: 'soon' })]) {
      expect(parseRollout(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

describe('rolloutUrl', () => {
  it('is beside the live manifest', () => {
    expect(rolloutUrl('http://127.0.0.1:4100/mf-search/mf-manifest.json')).toBe('http://127.0.0.1:4100/mf-search/rollout.json');
  });
});
