import { createInstance } from '@module-federation/enhanced/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutReplacementWarning } from './replacementWarning.js';

describe('withoutReplacementWarning', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("drops the runtime's own warning for a forced re-registration of the names given, and nothing else", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // The real runtime: its message must still be the one the filter knows.
    const instance = createInstance({ name: 'replacement_warning_test', remotes: [] });
    instance.registerRemotes([{ name: 'mf_a', entry: 'http://remote.test/a/mf-manifest.json' }]);
    withoutReplacementWarning(['mf_a'], () => instance.registerRemotes([{ name: 'mf_a', entry: 'http://remote.test/a/v2/mf-manifest.json' }], { force: true }));
    expect(warn).not.toHaveBeenCalled();
    expect(instance.options.remotes.find((remote) => remote.name === 'mf_a')).toMatchObject({ entry: 'http://remote.test/a/v2/mf-manifest.json' });
    // Unfiltered, the same call warns: the filter is what keeps the logs clean.
    instance.registerRemotes([{ name: 'mf_a', entry: 'http://remote.test/a/v3/mf-manifest.json' }], { force: true });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/The remote "mf_a" is already registered/));
  });

  it('lets every other warning through, also the same warning for another name, and restores console.warn after a throw', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const original = console.warn;
    expect(() =>
      withoutReplacementWarning(['mf_a'], () => {
        console.warn('[ Federation Runtime ]: The remote "mf_b" is already registered. Please note that overriding it may cause unexpected errors.');
        console.warn('something else', 1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(warn.mock.calls).toEqual([
      ['[ Federation Runtime ]: The remote "mf_b" is already registered. Please note that overriding it may cause unexpected errors.'],
      ['something else', 1],
    ]);
    expect(console.warn).toBe(original);
  });
});
