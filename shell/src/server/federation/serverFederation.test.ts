import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTRACTS_VERSION, ISLAND_API_VERSION, examplePageConfig, type IslandServerModule } from 'contracts';
import { FailureLog, serverIslandFailure } from './failureLog.js';
import { fetchWithTimeout } from './fetchWithTimeout.js';
import { ServerFederation, type FederationRuntime } from './serverFederation.js';
import { ServerIslands } from './serverIslands.js';
import { readServerIslandSettings } from './serverIslandsFromEnv.js';

const MANIFEST_URL = 'http://remote.test/mf-manifest.json';

function manifest(build: string, css: string[], contractsVersion: string | undefined): string {
  return JSON.stringify({
    metaData: {
      publicPath: 'auto',
      buildInfo: { buildVersion: build },
      ssrRemoteEntry: { path: 'server/', name: 'remoteEntry.js' },
      serverExposes: ['Hello'],
      contractsVersion,
    },
    // The browser build also exposes its standalone page's module, which the server build has not.
    exposes: [
      { name: 'Hello', assets: { css: { sync: css, async: [] }, js: { sync: [`hello.${build}.js`], async: [] } }, requires: ['contracts', 'react', 'react-dom/client'] },
      // Bound without a framework: its manifest entry says it needs no renderer.
      // Its lazy styles, as a manifest lists them: the shared file again and the standalone page's own.
      { name: 'Link', assets: { css: { sync: ['shared.css'], async: ['shared.css', 'standalone-page.css'] }, js: { sync: [`link.${build}.js`], async: [] } }, requires: ['contracts'] },
      // A build from before `requires`: taken to need the renderer.
      { name: 'Legacy', assets: { js: { sync: ['legacy.js'], async: [] } } },
      { name: 'Standalone', assets: { css: { sync: ['shared.css', 'standalone-page.css'] }, js: { sync: ['standalone.js'] } } },
    ],
    shared: [
      { name: 'react', assets: { js: { sync: ['react.js'] } } },
      { name: 'react-dom/client', assets: { js: { sync: [`renderer.${build}.js`], async: [] } } },
    ],
  });
}

/** A remote origin whose manifest can be redeployed, and a runtime that "loads" the current build. */
function fakeRemote() {
  const origin = { build: 'v1', manifestCalls: 0, down: false, contractsVersion: CONTRACTS_VERSION as string | undefined };
  const fetchFake = vi.fn(async (url: string | URL | Request) => {
    origin.manifestCalls += 1;
    if (origin.down) throw new TypeError('fetch failed (ECONNREFUSED)');
    expect(String(url)).toBe(MANIFEST_URL);
    return new Response(manifest(origin.build, [`hello.${origin.build}.css`], origin.contractsVersion));
  }) as unknown as typeof fetch;
  const disposed: string[] = [];
  const runtime = {
    registrations: [] as { force: boolean | undefined }[],
    loads: 0,
    registerRemotes(_remotes: unknown[], options?: { force?: boolean }) {
      runtime.registrations.push({ force: options?.force });
    },
    async loadRemote<T>(): Promise<T | null> {
      runtime.loads += 1;
      const build = origin.build;
      const module: IslandServerModule = {
        islandApiVersion: ISLAND_API_VERSION,
        render: async () => ({ html: `<p>${build}</p>` }),
        dispose: () => void disposed.push(build),
      };
      return module as T;
    },
  };
  const _typed: FederationRuntime = runtime;
  return { origin, fetchFake, runtime, disposed };
}

function federationFor(remote: ReturnType<typeof fakeRemote>, extra: Partial<ConstructorParameters<typeof ServerFederation>[0]> = {}) {
  return new ServerFederation({
    remotes: [{ name: 'mf-hello', entry: MANIFEST_URL }],
    runtime: remote.runtime,
    hopTimeoutMs: 500,
    disposeDelayMs: 5,
    fetch: remote.fetchFake,
    log: { error: () => {}, info: () => {} },
    ...extra,
  });
}

const page = { config: examplePageConfig(), url: '/articles/x', signal: new AbortController().signal };

describe('ServerFederation', () => {
  afterEach(() => vi.useRealTimers());

  it('loads a module once and serves later renders from the cache', async () => {
    const remote = fakeRemote();
    const federation = federationFor(remote);
    const first = await federation.load('mf-hello', 'Hello');
    const second = await federation.load('mf-hello', 'Hello');
    expect(second).toBe(first);
    expect(remote.runtime.loads).toBe(1);
    expect(remote.origin.manifestCalls).toBe(1);
    expect(remote.runtime.registrations).toEqual([{ force: false }]);
    expect(federation.stylesheets('mf-hello', 'Hello')).toEqual(['http://remote.test/hello.v1.css']);
    // Each stylesheet once, and never one only the remote's standalone page uses.
    expect(federation.stylesheets('mf-hello', 'Link')).toEqual(['http://remote.test/shared.css']);
    // Preload hints: the modules' own chunks, and the shared React renderer's where the manifest
    // says a module needs it as it loads (or does not say).
    expect(federation.scripts('mf-hello', ['Link'])).toEqual(['http://remote.test/link.v1.js']);
    expect(federation.scripts('mf-hello', ['Hello'])).toEqual(['http://remote.test/hello.v1.js', 'http://remote.test/renderer.v1.js']);
    // In the manifest's order.
    expect(federation.scripts('mf-hello', ['Link', 'Hello'])).toEqual([
      'http://remote.test/hello.v1.js',
      'http://remote.test/link.v1.js',
      'http://remote.test/renderer.v1.js',
    ]);
    expect(federation.scripts('mf-hello', ['Legacy'])).toEqual(['http://remote.test/legacy.js', 'http://remote.test/renderer.v1.js']);
    expect(federation.scripts('mf-other', ['Hello'])).toEqual([]);
  });

  it('uses a redeployed build after revalidation, re-registers with force and disposes the old build', async () => {
    const remote = fakeRemote();
    const federation = federationFor(remote);
    expect((await (await federation.load('mf-hello', 'Hello')).render({}, page)).html).toBe('<p>v1</p>');

    await federation.revalidate();
    expect(remote.runtime.registrations).toEqual([{ force: false }]);
    expect(federation.versions()[0]!.generation).toBe(0);

    remote.origin.build = 'v2';
    await federation.revalidate();
    expect(remote.runtime.registrations).toEqual([{ force: false }, { force: true }]);
    expect((await (await federation.load('mf-hello', 'Hello')).render({}, page)).html).toBe('<p>v2</p>');
    expect(federation.stylesheets('mf-hello', 'Hello')).toEqual(['http://remote.test/hello.v2.css']);
    await vi.waitFor(() => expect(remote.disposed).toEqual(['v1']));
    await federation.close();
    expect(remote.disposed).toEqual(['v1', 'v2']);
  });

  it('preloads every module the server build exposes, so the first page after a start or a redeploy does not wait for a cold load', async () => {
    const remote = fakeRemote();
    const federation = federationFor(remote);
    const errors: string[] = [];
    await federation.preload((name, error) => errors.push(`${name}: ${String(error)}`));
    expect(errors).toEqual([]);
    expect(remote.runtime.loads).toBe(1);
    await federation.load('mf-hello', 'Hello');
    expect(remote.runtime.loads).toBe(1);
    remote.origin.build = 'v2';
    await federation.revalidate();
    await vi.waitFor(() => expect(remote.runtime.loads).toBe(2));
  });

  it('keeps the loaded build when a revalidation fails, and tells it as a failed poll, not as a failure of that build', async () => {
    const remote = fakeRemote();
    const federation = federationFor(remote);
    await federation.load('mf-hello', 'Hello');
    remote.origin.down = true;
    const errors: string[] = [];
    const polls: string[] = [];
    await federation.revalidate(
      (name) => errors.push(name),
      (name, _error, loadedVersion) => polls.push(`${name} ${loadedVersion}`),
    );
    // A busy origin or event loop past the hop's deadline: every page still renders the loaded
    // build, so nothing is counted against it (the canary rule once held it against the stable build).
    expect(errors).toEqual([]);
    expect(polls).toEqual([`mf-hello ${federation.pollStates()[0]!.buildVersion}`]);
    expect((await (await federation.load('mf-hello', 'Hello')).render({}, page)).html).toBe('<p>v1</p>');
    expect(remote.runtime.registrations).toHaveLength(1);
  });

  it('does not fetch a down origin on every request, and recovers once it is back', async () => {
    let now = 0;
    const remote = fakeRemote();
    remote.origin.down = true;
    const federation = federationFor(remote, { retryMs: 1000, now: () => now });
    await expect(federation.load('mf-hello', 'Hello')).rejects.toMatchObject({ stage: 'manifest', remote: 'mf-hello' });
    await expect(federation.load('mf-hello', 'Hello')).rejects.toMatchObject({ stage: 'manifest' });
    expect(remote.origin.manifestCalls).toBe(1);
    remote.origin.down = false;
    now = 1500;
    expect(await federation.load('mf-hello', 'Hello')).toBeTruthy();
    expect(remote.origin.manifestCalls).toBe(2);
  });

  it('refuses a remote whose manifest names no server build, and a module of another interface version', async () => {
    const remote = fakeRemote();
    remote.fetchFake = (async () => new Response(JSON.stringify({ metaData: {}, exposes: [] }))) as unknown as typeof fetch;
    await expect(federationFor(remote).load('mf-hello', 'Hello')).rejects.toMatchObject({ stage: 'manifest' });
    expect(remote.runtime.loads).toBe(0);

    const old = fakeRemote();
    old.runtime.loadRemote = async <T,>() => ({ islandApiVersion: 1, render: async () => ({ html: '' }) }) as T;
    await expect(federationFor(old).load('mf-hello', 'Hello')).rejects.toMatchObject({ stage: 'version' });
  });
});

describe('fetchWithTimeout', () => {
  it('gives up on a hanging origin at the deadline and fails on an error status', async () => {
    const server = http.createServer((request, response) => {
      if (request.url === '/missing') {
        response.statusCode = 404;
        response.end('Not found');
      }
      // Any other path hangs.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // The origin never answers: that this settles at all is the deadline at work (no wall-clock bound).
      await expect(fetchWithTimeout(fetch, `${base}/hang`, 200)).rejects.toThrow(/no answer from .* within 200 ms/);
      await expect(fetchWithTimeout(fetch, `${base}/missing`, 1000)).rejects.toThrow(`HTTP 404 for ${base}/missing`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('ServerIslands', () => {
  function islandsWith(render: IslandServerModule['render'], log: string[], budgetMs = 100, extra: Partial<IslandServerModule> = {}, generation = () => 0) {
    const federation = {
      load: async () => ({ islandApiVersion: ISLAND_API_VERSION, render, ...extra }),
      stylesheets: () => [],
      generation,
      buildKey: (_remote: string, version?: string | null) => (version ? `version ${version}` : `live ${generation()}`),
    } as unknown as ServerFederation;
    return new ServerIslands({ federation, budgetMs, failures: new FailureLog({ intervalMs: 60_000, log: { error: (line: string) => log.push(line) } }) });
  }

  it('preloads the first view\'s scripts only when one remote holds every island that hydrates at once', () => {
    const calls: Array<[string, string[]]> = [];
    const federation = {
      scripts: (remote: string, modules: string[]) => {
        calls.push([remote, modules]);
        return modules.map((module) => `http://${remote}/${module}.js`).concat([`http://${remote}/renderer.js`]);
      },
      needsRenderer: () => true,
    } as unknown as ServerFederation;
    const islands = new ServerIslands({ federation, budgetMs: 100 });
    expect(
      islands.firstViewScripts([
        { name: 'mf-a/Link', props: {} },
        { name: 'mf-a/Button', props: {} },
        { name: 'mf-b/Search', props: {}, hydrate: 'interaction' },
        { name: 'mf-c/Survey', props: {}, hydrate: 'visible' },
      ]),
    ).toEqual(['http://mf-a/Link.js', 'http://mf-a/Button.js', 'http://mf-a/renderer.js']);
    expect(calls).toEqual([['mf-a', ['Link', 'Button']]]);
    expect(islands.firstViewScripts([{ name: 'mf-a/Link', props: {} }, { name: 'mf-b/List', props: {} }])).toEqual([]);
    expect(islands.firstViewScripts([{ name: 'mf-b/Search', props: {}, hydrate: 'idle' }])).toEqual([]);
  });

  it('with several remotes hydrating at once, preloads their chunks only when none of them needs React as it loads', () => {
    const bound = new Set(['mf-a/Link', 'mf-b/List']);
    const federation = {
      scripts: (remote: string, modules: string[]) => modules.map((module) => `http://${remote}/${module}.js`),
      needsRenderer: (remote: string, modules: string[]) => modules.some((module) => !bound.has(`${remote}/${module}`)),
    } as unknown as ServerFederation;
    const islands = new ServerIslands({ federation, budgetMs: 100 });
    expect(islands.firstViewScripts([{ name: 'mf-a/Link', props: {} }, { name: 'mf-b/List', props: {} }])).toEqual(['http://mf-a/Link.js', 'http://mf-b/List.js']);
    expect(islands.firstViewScripts([{ name: 'mf-a/Link', props: {} }, { name: 'mf-b/Screen', props: {} }])).toEqual([]);
  });

  it('renders each island alone: a throwing or slow one fails, the others render', async () => {
    const log: string[] = [];
    let signal: AbortSignal | undefined;
    const islands = islandsWith(async (props, context) => {
      if (props.kind === 'throw') throw new Error('boom');
      if (props.kind === 'slow') {
        // Never finishes by itself: only the budget can end it, so renderAll settling proves the cut.
        signal = context.signal;
        await new Promise(() => {});
      }
      return { html: `<b>${String(props.kind)}</b>`, state: { kind: props.kind } };
    }, log);
    const outcomes = await islands.renderAll(
      [
        { name: 'mf-a/Ok', props: { kind: 'ok' } },
        { name: 'mf-b/Throws', props: { kind: 'throw' } },
        { name: 'mf-c/Slow', props: { kind: 'slow' } },
      ],
      { config: examplePageConfig(), url: '/' },
    );
    expect(outcomes).toEqual([
      { ok: true, result: { html: '<b>ok</b>', state: { kind: 'ok' } }, ms: expect.any(Number) },
      { ok: false, stage: 'render', ms: expect.any(Number) },
      { ok: false, stage: 'timeout', ms: expect.any(Number) },
    ]);
    // The slow island is cut at the budget, and told so.
    expect(signal?.aborted).toBe(true);
    expect(log).toHaveLength(2);
    expect(log[0]).toContain('remote "mf-b" failed on the server (stage: render): "mf-b/Throws": boom');
    expect(log[1]).toContain('remote "mf-c" failed on the server (stage: timeout)');
  });

  it('gives each island its own outcome as soon as it settles, and knows the remotes whose latest render failed', async () => {
    let finishSlow: () => void = () => {};
    const islands = islandsWith(async (props) => {
      if (props.kind === 'throw') throw new Error('boom');
      if (props.kind === 'slow') await new Promise<void>((resolve) => (finishSlow = resolve));
      return { html: `<b>${String(props.kind)}</b>` };
    }, []);
    const page = { config: examplePageConfig(), url: '/' };
    const requests = [
      { name: 'mf-a/Slow', props: { kind: 'slow' } },
      { name: 'mf-b/Throws', props: { kind: 'throw' } },
    ];
    expect(islands.failingRemotes(requests)).toEqual([]);
    const [slow, throws] = islands.renderEach(requests, page);
    // The failed island is known while the slow one still renders.
    expect(await throws).toMatchObject({ ok: false, stage: 'render' });
    expect(islands.failingRemotes(requests)).toEqual(['mf-b']);
    finishSlow();
    expect(await slow).toMatchObject({ ok: true, result: { html: '<b>slow</b>' } });
    // A later success clears it.
    await islands.renderAll([{ name: 'mf-b/Ok', props: { kind: 'ok' } }], page);
    expect(islands.failingRemotes(requests)).toEqual([]);
  });

  it('reuses a render only when the module allows it, per props and address, and not across builds', async () => {
    const page = { config: examplePageConfig(), url: '/a' };
    let renders = 0;
    const render: IslandServerModule['render'] = async (props) => ({ html: `<i>${String(props.id)}:${++renders}</i>` });
    const uncached = islandsWith(render, []);
    await uncached.renderAll([{ name: 'mf-a/X', props: { id: 1 } }], page);
    await uncached.renderAll([{ name: 'mf-a/X', props: { id: 1 } }], page);
    expect(renders).toBe(2);

    renders = 0;
    let generation = 0;
    const cached = islandsWith(render, [], 100, { cacheTtlMs: 60_000 }, () => generation);
    const html = async (id: number, url = '/a') => {
      const [outcome] = await cached.renderAll([{ name: 'mf-a/X', props: { id } }], { ...page, url });
      return outcome!.ok ? outcome!.result.html : 'failed';
    };
    expect([await html(1), await html(1), await html(2), await html(1, '/b')]).toEqual(['<i>1:1</i>', '<i>1:1</i>', '<i>2:2</i>', '<i>1:3</i>']);
    generation = 1;
    expect(await html(1)).toBe('<i>1:4</i>');
  });

  it("reports the data versions its live islands declare, and renders again once an island's data version moved", async () => {
    const page = { config: examplePageConfig(), url: '/a' };
    let data = 'index-1';
    let renders = 0;
    const render: IslandServerModule['render'] = async () => ({ html: `<i>${data}:${++renders}</i>` });
    const islands = islandsWith(render, [], 100, { cacheTtlMs: 60_000, dataVersion: () => data });
    expect(islands.dataVersions()).toEqual([]);
    const html = async () => {
      const [outcome] = await islands.renderAll([{ name: 'mf-a/X', props: {} }], page);
      return outcome!.ok ? outcome!.result.html : 'failed';
    };
    expect([await html(), await html()]).toEqual(['<i>index-1:1</i>', '<i>index-1:1</i>']);
    expect(islands.dataVersions()).toEqual(['mf-a/X=index-1']);
    data = 'index-2';
    expect(islands.dataVersions()).toEqual(['mf-a/X=index-2']);
    expect(await html()).toBe('<i>index-2:2</i>');
  });

  it('logs one line per remote per interval however many islands fail', async () => {
    const log: string[] = [];
    const islands = islandsWith(async () => {
      throw new Error('down');
    }, log);
    const requests = Array.from({ length: 12 }, (_, index) => ({ name: 'mf-watchlist/WatchlistButton', props: { id: String(index) } }));
    await islands.renderAll(requests, { config: examplePageConfig(), url: '/' });
    await islands.renderAll(requests, { config: examplePageConfig(), url: '/' });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/remote "mf-watchlist" failed on the server \(stage: render\)/);
  });
});

describe('ServerFederation: contracts versions', () => {
  const [major, minor] = CONTRACTS_VERSION.split('.').map(Number) as [number, number];

  it.each([`${major}.0.0`, `${major}.${minor + 1}.0`])('renders a remote built against contracts %s (same major)', async (version) => {
    const remote = fakeRemote();
    remote.origin.contractsVersion = version;
    expect((await (await federationFor(remote).load('mf-hello', 'Hello')).render({}, page)).html).toBe('<p>v1</p>');
  });

  it.each([`${major + 1}.0.0`, undefined])('refuses a remote built against contracts %s before loading its code (KHS-ISLAND-004)', async (version) => {
    const remote = fakeRemote();
    remote.origin.contractsVersion = version;
    await expect(federationFor(remote).load('mf-hello', 'Hello')).rejects.toMatchObject({
      stage: 'compatibility',
      code: 'KHS-ISLAND-004',
      remote: 'mf-hello',
    });
    expect(remote.runtime.loads).toBe(0);
  });

  it('refuses a redeployed build of another major; the shell logs one coded line and renders placeholders', async () => {
    const remote = fakeRemote();
    const federation = federationFor(remote);
    const log: string[] = [];
    const islands = new ServerIslands({ federation, budgetMs: 1000, failures: new FailureLog({ log: { error: (line: string) => log.push(line) } }) });
    const request = [{ name: 'mf-hello/Hello', props: {} }];
    expect((await islands.renderAll(request, { config: examplePageConfig(), url: '/' }))[0]!.ok).toBe(true);
    remote.origin.build = 'v2';
    remote.origin.contractsVersion = `${major + 1}.0.0`;
    await federation.revalidate();
    const [outcome] = await islands.renderAll(request, { config: examplePageConfig(), url: '/' });
    expect(outcome).toMatchObject({ ok: false, stage: 'compatibility' });
    expect(remote.runtime.loads).toBe(1);
    expect(log).toEqual([expect.stringMatching(new RegExp(`^\\[shell\\] KHS-ISLAND-004 remote "mf-hello" failed on the server \\(stage: compatibility\\): .*contracts ${major + 1}\\.0\\.0`))]);
  });
});

describe('readServerIslandSettings: the head budget', () => {
  it('waits 20 ms by default, any whole number of milliseconds from 0 when set, and refuses anything else', () => {
    expect(readServerIslandSettings({}).headBudgetMs).toBe(20);
    expect(readServerIslandSettings({ PAGE_HEAD_BUDGET_MS: '0' }).headBudgetMs).toBe(0);
    expect(readServerIslandSettings({ PAGE_HEAD_BUDGET_MS: '1000' }).headBudgetMs).toBe(1000);
    expect(() => readServerIslandSettings({ PAGE_HEAD_BUDGET_MS: 'soon' })).toThrow('PAGE_HEAD_BUDGET_MS');
  });
});

describe('FailureLog', () => {
  it('starts each line with the stable code: the error\'s own, else the one of its stage', () => {
    const lines: string[] = [];
    const failures = new FailureLog({ log: { error: (line: string) => lines.push(line) } });
    failures.report('mf-a', 'render', new Error('x'));
    failures.report('mf-b', 'load', Object.assign(new Error('y'), { code: 'KHS-ISLAND-006' }));
    failures.report('mf-c', 'timeout', new Error('z'));
    expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      '[shell] KHS-ISLAND-008 remote',
      '[shell] KHS-ISLAND-006 remote',
      '[shell] KHS-ISLAND-003 remote',
    ]);
  });

  it('writes one line per failure, never a stack, unless stacks are asked for (LOG_LEVEL=debug)', () => {
    const thrown = new Error('search failed (401): Forbidden\nsecond line of a message', { cause: new Error('the cause') });
    const quiet: string[] = [];
    new FailureLog({ log: { error: (line: string) => quiet.push(line) } }).report('mf-search', 'render', thrown);
    expect(quiet).toEqual([
      '[shell] KHS-ISLAND-008 remote "mf-search" failed on the server (stage: render): search failed (401): Forbidden; its islands render placeholders',
    ]);
    const debug: string[] = [];
    new FailureLog({ stacks: true, log: { error: (line: string) => debug.push(line) } }).report('mf-search', 'render', thrown);
    expect(debug).toHaveLength(1);
    expect(debug[0]!.split('\n')[0]).toBe(quiet[0]);
    expect(debug[0]).toMatch(/\n\s+at /);
    expect(debug[0]).toContain('caused by: Error: the cause');
    expect(readServerIslandSettings({}).failureStacks).toBe(false);
    expect(readServerIslandSettings({ LOG_LEVEL: 'info' }).failureStacks).toBe(false);
    expect(readServerIslandSettings({ LOG_LEVEL: 'debug' }).failureStacks).toBe(true);
  });

  it('warns of a failed poll of a loaded build once per interval, and counts nothing (no island failed)', () => {
    let now = 0;
    const warnings: string[] = [];
    const errors: string[] = [];
    const heard: string[] = [];
    const failures = new FailureLog({
      intervalMs: 1000,
      now: () => now,
      log: { error: (line: string) => errors.push(line), warn: (line: string) => warnings.push(line) },
      onFailure: (remote) => heard.push(remote),
    });
    const timeout = new Error('manifest of "mf-a": no answer from http://a.test/mf-manifest.json within 1000 ms\nmore');
    failures.pollFailed('mf-a', timeout, '0.1.0+aaaa');
    failures.pollFailed('mf-a', timeout, '0.1.0+aaaa');
    now = 1001;
    failures.pollFailed('mf-a', timeout, '0.1.0+aaaa');
    expect(heard).toEqual([]);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      '[shell] manifest poll of "mf-a" failed: manifest of "mf-a": no answer from http://a.test/mf-manifest.json within 1000 ms; its islands go on rendering with the loaded build 0.1.0+aaaa',
      '[shell] manifest poll of "mf-a" failed: manifest of "mf-a": no answer from http://a.test/mf-manifest.json within 1000 ms; its islands go on rendering with the loaded build 0.1.0+aaaa',
    ]);
  });

  it('counts a failed render or load for the build the page rendered, and a render past its budget for no build', () => {
    expect(serverIslandFailure('mf-a', 'render', new Error('x'), '0.1.0+aaaa')).toEqual({ remote: 'mf-a', source: 'server', code: 'KHS-ISLAND-008', version: '0.1.0+aaaa' });
    expect(serverIslandFailure('mf-a', 'load', new Error('x'), '0.1.0+aaaa')).toEqual({ remote: 'mf-a', source: 'server', code: 'KHS-ISLAND-002', version: '0.1.0+aaaa' });
    // A busy machine (or a build's cold first load) runs past the budget on every build alike:
    // counted for the health view, not held against the build by the canary rule.
    expect(serverIslandFailure('mf-a', 'timeout', new Error('x'), '0.1.0+aaaa')).toEqual({ remote: 'mf-a', source: 'server', code: 'KHS-ISLAND-003' });
    expect(serverIslandFailure('mf-a', 'manifest', new Error('x'), undefined)).toEqual({ remote: 'mf-a', source: 'server', code: 'KHS-ISLAND-001' });
  });

  it('writes again after the interval, counting what it left out', () => {
    let now = 0;
    const lines: string[] = [];
    const failures = new FailureLog({ intervalMs: 1000, now: () => now, log: { error: (line: string) => lines.push(line) } });
    failures.report('mf-a', 'load', new Error('x'));
    failures.report('mf-a', 'load', new Error('x'));
    failures.report('mf-b', 'manifest', new Error('y'));
    now = 1001;
    failures.report('mf-a', 'render', new Error('z'));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('remote "mf-a" failed on the server (stage: render): z; its islands render placeholders (1 more failures since the last line)');
  });
});
