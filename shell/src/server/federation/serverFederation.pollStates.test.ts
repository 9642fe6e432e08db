import { describe, expect, it } from 'vitest';
import { ISLAND_API_VERSION, type IslandServerModule } from 'contracts';
import { FailureLog } from './failureLog.js';
import { ServerFederation } from './serverFederation.js';

const MANIFEST_URL = 'http://remote.test/mf-manifest.json';

/** A deployed version's manifest as tooling/deploy switches it in: paths rebased onto its folder. */
function deployedManifest(version: string): string {
  return JSON.stringify({
    metaData: {
      publicPath: 'auto',
      buildVersion: version,
      contractsVersion: '1.1.0',
      deployedAt: '2026-11-22T10:00:00.000Z',
      buildInfo: { buildVersion: '0.1.0' },
      remoteEntry: { path: `versions/${version}/`, name: 'remoteEntry.0123abcd.js' },
      ssrRemoteEntry: { path: `versions/${version}/server/`, name: 'remoteEntry.js' },
      serverExposes: ['Hello'],
    },
    exposes: [{ name: 'Hello' }],
  });
}

describe("the loader's poll state (read by /health/remotes and the entry preloads)", () => {
  it('records each poll, the loaded build and when it changed; a failed poll keeps the build', async () => {
    const origin = { version: '0.1.0+aaaa', down: false };
    let clock = 1_000;
    const module: IslandServerModule = { islandApiVersion: ISLAND_API_VERSION, render: async () => ({ html: '<p>hi</p>' }) };
    const federation = new ServerFederation({
      remotes: [{ name: 'mf-hello', entry: MANIFEST_URL }],
      runtime: { registerRemotes: () => {}, loadRemote: async <T,>() => module as T },
      hopTimeoutMs: 500,
      disposeDelayMs: 5,
      now: () => clock,
      log: { error: () => {}, info: () => {} },
      fetch: (async () => {
        if (origin.down) throw new TypeError('fetch failed (ECONNREFUSED)');
        return new Response(deployedManifest(origin.version));
      }) as unknown as typeof fetch,
    });
    expect(federation.pollStates()).toEqual([{ remote: 'mf-hello', manifestUrl: MANIFEST_URL, generation: 0 }]);
    expect(federation.browserEntryUrl('mf-hello')).toBeUndefined();
    expect(federation.liveBuildVersion('mf-hello')).toBeUndefined();
    expect(federation.liveBuildVersions()).toEqual([{ remote: 'mf-hello', buildVersion: undefined }]);

    await federation.load('mf-hello', 'Hello');
    // The per-request lookup (island metrics, page versions) says what the health view's state says.
    expect(federation.liveBuildVersion('mf-hello')).toBe('0.1.0+aaaa');
    expect(federation.pollStates()[0]).toEqual({
      remote: 'mf-hello',
      manifestUrl: MANIFEST_URL,
      lastPoll: { at: 1_000, ok: true },
      buildVersion: '0.1.0+aaaa',
      contractsVersion: '1.1.0',
      changedAt: 1_000,
      deployedAt: '2026-11-22T10:00:00.000Z',
      generation: 0,
      browserEntryUrl: 'http://remote.test/versions/0.1.0+aaaa/remoteEntry.0123abcd.js',
    });

    clock = 2_000;
    origin.down = true;
    await federation.revalidate();
    expect(federation.pollStates()[0]).toMatchObject({
      lastPoll: { at: 2_000, ok: false, error: expect.stringContaining('ECONNREFUSED') },
      buildVersion: '0.1.0+aaaa',
      changedAt: 1_000,
    });

    clock = 3_000;
    origin.down = false;
    origin.version = '0.1.0+bbbb';
    await federation.revalidate();
    expect(federation.pollStates()[0]).toMatchObject({ lastPoll: { at: 3_000, ok: true }, buildVersion: '0.1.0+bbbb', changedAt: 3_000, generation: 1 });
    expect(federation.liveBuildVersions()).toEqual([{ remote: 'mf-hello', buildVersion: '0.1.0+bbbb' }]);
    expect(federation.browserEntryUrl('mf-hello')).toBe('http://remote.test/versions/0.1.0+bbbb/remoteEntry.0123abcd.js');
    await federation.close();
  });

  it('tells the failure log listener of every failure, also those the log line leaves out', () => {
    const heard: string[] = [];
    const failures = new FailureLog({ log: { error: () => {} }, onFailure: (remote, stage) => heard.push(`${remote} ${stage}`) });
    failures.report('mf-hello', 'render', new Error('boom'));
    failures.report('mf-hello', 'render', new Error('boom'));
    expect(heard).toEqual(['mf-hello render', 'mf-hello render']);
  });
});
