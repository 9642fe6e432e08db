import { describe, expect, it } from 'vitest';
import { LIVE_CHOICE, selectPageVersions, type SelectionContext } from '../federation/versionSelection.js';
import { VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE_SECONDS, canaryPosition, canarySelectionPlugin, newVisitorId } from './canarySelectionPlugin.js';
import type { Rollout } from './rollout.js';

const ROLLOUT: Rollout = { stable: '1.0.0+aaaa', canary: { version: '1.1.0+bbbb', share: 0.1, startedAt: '2026-11-26T03:00:00.000Z' }, ended: null };

function request(cookies: Record<string, string> = {}) {
  const set: Array<{ name: string; value: string; options: unknown }> = [];
  const context: SelectionContext = { cookies, headers: {}, url: '/', now: 0, setCookie: (name, value, options) => set.push({ name, value, options }) };
  return { context, set };
}

const plugin = (rollout: Rollout | null = ROLLOUT, ended = false) =>
  canarySelectionPlugin({ rolloutOf: (remote) => (remote === 'mf-search' ? rollout : null), hasEnded: () => ended });

describe('canaryPosition', () => {
  it('is stable for a visitor, remote and canary version, in [0, 1), and spreads visitors evenly', () => {
    expect(canaryPosition('visitor-1', 'mf-search', 'v2')).toBe(canaryPosition('visitor-1', 'mf-search', 'v2'));
    expect(canaryPosition('visitor-1', 'mf-search', 'v2')).not.toBe(canaryPosition('visitor-1', 'mf-search', 'v3'));
    const positions = Array.from({ length: 10_000 }, (_, index) => canaryPosition(`visitor-${index}`, 'mf-search', 'v2'));
    expect(positions.every((position) => position >= 0 && position < 1)).toBe(true);
    const belowTenPercent = positions.filter((position) => position < 0.1).length;
    // Binomial(10000, 0.1): sd 30; 5 sd either side.
    expect(belowTenPercent).toBeGreaterThan(850);
    expect(belowTenPercent).toBeLessThan(1150);
  });
});

describe('canarySelectionPlugin', () => {
  it('leaves the live choice alone without a rollout, without a canary, or once the rule ended it — and sets no cookie', () => {
    for (const selection of [plugin(null), plugin({ ...ROLLOUT, canary: null }), plugin(ROLLOUT, true)]) {
      const { context, set } = request();
      expect(selection.select(context, 'mf-search', LIVE_CHOICE)).toBe(LIVE_CHOICE);
      expect(set).toEqual([]);
    }
    const { context, set } = request();
    expect(plugin().select(context, 'mf-survey', LIVE_CHOICE)).toBe(LIVE_CHOICE);
    expect(set).toEqual([]);
  });

  it('gives a new visitor an id in a long-lived HttpOnly SameSite=Lax cookie, once per request however many remotes', () => {
    const both: Rollout = { ...ROLLOUT, canary: { ...ROLLOUT.canary!, share: 0.5 } };
    const selection = canarySelectionPlugin({ rolloutOf: () => both, hasEnded: () => false });
    const { context, set } = request();
    selectPageVersions([selection], context, ['mf-search', 'mf-survey', 'mf-widgets']);
    expect(set).toEqual([{ name: VISITOR_COOKIE, value: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), options: { maxAge: VISITOR_COOKIE_MAX_AGE_SECONDS, path: '/', httpOnly: true, sameSite: 'lax' } }]);
    // A forged or malformed id is replaced, a valid one kept.
    const forged = request({ [VISITOR_COOKIE]: 'x;y' });
    plugin().select(forged.context, 'mf-search', LIVE_CHOICE);
    expect(forged.set).toHaveLength(1);
    const known = request({ [VISITOR_COOKIE]: newVisitorId() });
    plugin().select(known.context, 'mf-search', LIVE_CHOICE);
    expect(known.set).toEqual([]);
  });

  it('assigns by the hash: below the share the canary, else stable; both sides private; a returning visitor keeps their side', () => {
    const visitors = Array.from({ length: 400 }, () => newVisitorId());
    const sides = visitors.map((id) => plugin().select(request({ [VISITOR_COOKIE]: id }).context, 'mf-search', LIVE_CHOICE));
    for (const [index, choice] of sides.entries()) {
      const expected = canaryPosition(visitors[index]!, 'mf-search', '1.1.0+bbbb') < 0.1;
      expect(choice).toEqual(expected ? { version: '1.1.0+bbbb', reason: 'canary', cacheable: false } : { version: '1.0.0+aaaa', reason: 'stable', cacheable: false });
    }
    const onCanary = sides.filter((choice) => choice.reason === 'canary').length;
    expect(onCanary).toBeGreaterThan(10);
    expect(onCanary).toBeLessThan(80);
    // Again, on "another instance" (a new plugin): the same sides.
    const again = visitors.map((id) => plugin().select(request({ [VISITOR_COOKIE]: id }).context, 'mf-search', LIVE_CHOICE).reason);
    expect(again).toEqual(sides.map((choice) => choice.reason));
    const page = selectPageVersions([plugin()], request({ [VISITOR_COOKIE]: visitors[0]! }).context, ['mf-search']);
    expect(page.cacheControl).toBe('private');
  });

  it('the new visitor’s side follows the id it was just given', () => {
    const selection = canarySelectionPlugin({ rolloutOf: () => ({ ...ROLLOUT, canary: { ...ROLLOUT.canary!, share: 0.5 } }), hasEnded: () => false, newId: () => 'A'.repeat(22) });
    const expected = canaryPosition('A'.repeat(22), 'mf-search', '1.1.0+bbbb') < 0.5 ? 'canary' : 'stable';
    expect(selection.select(request().context, 'mf-search', LIVE_CHOICE).reason).toBe(expected);
  });
});
