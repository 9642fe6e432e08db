import { describe, expect, it, vi } from 'vitest';
import { ISLAND_API_VERSION, type IslandServerModule } from 'contracts';
import type { ParsedManifest } from '../manifest.js';
import { contractsCompatibilityPlugin } from './contractsCompatibilityPlugin.js';
import { delayedDisposePlugin } from './delayedDisposePlugin.js';
import { islandInterfacePlugin } from './islandInterfacePlugin.js';
import { newBuildLogPlugin } from './newBuildLogPlugin.js';
import { serverBuildRequiredPlugin } from './serverBuildRequiredPlugin.js';

function manifest(metaData: Record<string, unknown>): ParsedManifest {
  return { hash: 'f'.repeat(64), url: 'http://remote.test/mf-manifest.json', json: { metaData } };
}

describe('serverBuildRequiredPlugin', () => {
  it('refuses a manifest that names no server build, and lets one that does pass', () => {
    const plugin = serverBuildRequiredPlugin();
    expect(() => plugin.beforeLoad!({ remote: 'mf-a', module: 'X', manifest: manifest({}) })).toThrow(
      expect.objectContaining({ name: 'ServerIslandError', stage: 'manifest', code: 'KHS-ISLAND-001', message: expect.stringContaining('ssrRemoteEntry') }),
    );
    expect(() => plugin.beforeLoad!({ remote: 'mf-a', module: 'X', manifest: manifest({ ssrRemoteEntry: { name: 'remoteEntry.js' } }) })).not.toThrow();
  });
});

describe('contractsCompatibilityPlugin', () => {
  const plugin = contractsCompatibilityPlugin('2.3.0');
  const check = (contractsVersion?: string) => () => plugin.beforeLoad!({ remote: 'mf-a', module: 'X', manifest: manifest({ contractsVersion }) });

  it('accepts a build of the same major at or below the host minor', () => {
    expect(check('2.3.0')).not.toThrow();
    expect(check('2.0.1')).not.toThrow();
  });

  it('refuses another major and a build that states no version, with the compatibility code', () => {
    for (const version of ['3.0.0', '1.9.0', undefined]) {
      expect(check(version), String(version)).toThrow(expect.objectContaining({ stage: 'compatibility', code: 'KHS-ISLAND-004' }));
    }
  });
});

describe('islandInterfacePlugin', () => {
  const plugin = islandInterfacePlugin(ISLAND_API_VERSION);
  const check = (loaded: unknown) => () => plugin.afterLoad!({ remote: 'mf-a', module: 'X', loaded: loaded as IslandServerModule | null });

  it('accepts a module with a render of this interface version', () => {
    expect(check({ islandApiVersion: ISLAND_API_VERSION, render: async () => ({ html: '' }) })).not.toThrow();
  });

  it('refuses nothing loaded or a module without render (KHS-ISLAND-006), and another interface version', () => {
    expect(check(null)).toThrow(expect.objectContaining({ code: 'KHS-ISLAND-006' }));
    expect(check({ islandApiVersion: ISLAND_API_VERSION })).toThrow(expect.objectContaining({ code: 'KHS-ISLAND-006' }));
    expect(check({ islandApiVersion: ISLAND_API_VERSION + 1, render: async () => ({ html: '' }) })).toThrow(
      expect.objectContaining({ stage: 'version', message: expect.stringContaining(`this shell renders ${ISLAND_API_VERSION}`) }),
    );
  });
});

describe('delayedDisposePlugin', () => {
  function build(disposers: Array<() => void>, failing = false) {
    const modules = new Map<string, Promise<IslandServerModule>>();
    disposers.forEach((dispose, index) => modules.set(`M${index}`, Promise.resolve({ islandApiVersion: ISLAND_API_VERSION, render: async () => ({ html: '' }), dispose })));
    if (failing) {
      const failed = Promise.reject(new Error('never loaded'));
      failed.catch(() => {}); // as the loader does: a failed load is handled where it is awaited
      modules.set('Failed', failed);
    }
    return { remote: 'mf-a', manifest: manifest({}), modules };
  }

  it('disposes a retired build after the delay, each dispose function once, skipping modules that failed to load', async () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      const shared = () => void calls.push('shared');
      const plugin = delayedDisposePlugin({ delayMs: 1000 });
      await plugin.buildRetired!({ build: build([shared, shared, () => void calls.push('own')], true), closing: false });
      await vi.advanceTimersByTimeAsync(999);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls.sort()).toEqual(['own', 'shared']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('disposes at once when the loader closes, cancels pending ones, and logs a dispose that throws', async () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      const errors: string[] = [];
      const plugin = delayedDisposePlugin({ delayMs: 1000, log: { error: (line: string) => errors.push(line) } });
      await plugin.buildRetired!({ build: build([() => void calls.push('pending')]), closing: false });
      plugin.close!();
      await plugin.buildRetired!({ build: build([() => void calls.push('now'), () => { throw new Error('socket'); }]), closing: true });
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toEqual(['now']);
      expect(errors).toEqual(['[shell] an old remote build failed to dispose']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('newBuildLogPlugin', () => {
  it('logs one line naming the remote, the new build version and its manifest hash', () => {
    const lines: string[] = [];
    newBuildLogPlugin({ info: (line: string) => lines.push(line) }).liveBuildChanged!({
      remote: 'mf-a',
      previous: undefined,
      fresh: manifest({ buildVersion: '1.0.0+bbbb' }),
    });
    expect(lines).toEqual(['[shell] remote "mf-a" has a new build (1.0.0+bbbb, manifest ffffffffffff); the next pages render with it']);
  });
});
