import { describe, expect, it } from 'vitest';
import { contractsCompatibilityPlugin } from './contractsCompatibilityPlugin.js';
import { failureReportPlugin } from './failureReportPlugin.js';
import { loadTimeoutPlugin } from './loadTimeoutPlugin.js';
import { fakeContainers, fakeIsland, manifestOf, runtimeWith } from './testingRuntime.testing.js';
import type { IslandFailureReport } from '../../shared/islandFailureReport.js';

function setUp(name: string, contractsVersion: string | null) {
  const reports: IslandFailureReport[] = [];
  const containers = fakeContainers();
  const fetchFake = (async () => new Response(manifestOf(name, contractsVersion))) as unknown as typeof fetch;
  const { instance } = runtimeWith(name, [
    loadTimeoutPlugin({ timeoutMs: 1000, fetch: fetchFake }),
    contractsCompatibilityPlugin('1.2.0'),
    failureReportPlugin((report) => reports.push(report)),
    containers,
  ]);
  return { instance, reports, containers };
}

describe('contractsCompatibilityPlugin with the federation runtime', () => {
  it.each(['1.2.0', '1.1.0', '1.3.0', '1.0.0'])('loads a remote built against contracts %s (same major)', async (version) => {
    const { instance, reports, containers } = setUp(`mf-ok-${version.replace(/\./g, '')}`, version);
    expect(await instance.loadRemote(`mf-ok-${version.replace(/\./g, '')}/Island`)).toBe(fakeIsland);
    expect(reports).toEqual([]);
    expect(containers.loaded).toHaveLength(1);
  });

  it('refuses a remote of the next major before its entry loads, and reports KHS-ISLAND-004 with its versions', async () => {
    const { instance, reports, containers } = setUp('mf-next', '2.0.0');
    await expect(instance.loadRemote('mf-next/Island')).rejects.toThrow(/KHS-ISLAND-004 \[compatibility\] remote "mf-next" refused: .*contracts 2\.0\.0/);
    expect(containers.loaded).toEqual([]);
    expect(reports).toEqual([
      { remote: 'mf-next', module: './Island', stage: 'compatibility', code: 'KHS-ISLAND-004', remoteVersion: 'build-7', contractsVersion: '2.0.0' },
    ]);
  });

  it('refuses a remote whose manifest records no contracts version', async () => {
    const { instance, reports } = setUp('mf-unknown', null);
    await expect(instance.loadRemote('mf-unknown/Island')).rejects.toThrow(/does not say which contracts version/);
    expect(reports).toEqual([{ remote: 'mf-unknown', module: './Island', stage: 'compatibility', code: 'KHS-ISLAND-004', remoteVersion: 'build-7' }]);
  });
});
