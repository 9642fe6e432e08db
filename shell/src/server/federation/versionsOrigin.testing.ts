import { vi } from 'vitest';
import { CONTRACTS_VERSION, ISLAND_API_VERSION, type IslandServerModule } from 'contracts';
import { ServerFederation, type FederationRuntime } from './serverFederation.js';

export const ORIGIN = 'http://remote.test/mf-hello/';
export const LIVE_URL = `${ORIGIN}mf-manifest.json`;

function manifest(version: string, folder = '', deployedAt?: string): string {
  return JSON.stringify({
    metaData: {
      publicPath: 'auto',
      buildVersion: version,
      ...(deployedAt ? { deployedAt } : {}),
      remoteEntry: { path: folder, name: `remoteEntry.${version}.js` },
      ssrRemoteEntry: { path: `${folder}server/`, name: 'remoteEntry.js' },
      serverExposes: ['Hello'],
      contractsVersion: CONTRACTS_VERSION,
    },
    exposes: [{ name: 'Hello', assets: { css: { sync: [`${folder}hello.${version}.css`] }, js: { sync: [`${folder}hello.${version}.js`] } }, requires: ['react-dom/client'] }],
  });
}

/**
 * An origin as tooling/deploy leaves it: the live manifest (pointing into its version's folder)
 * and every published build's own manifest in `versions/<v>/`; a runtime whose modules render
 * the version of the manifest they were registered with.
 */
export function fakeOrigin(published: string[], live: string) {
  const origin = { live, published: new Set(published), fetched: [] as string[], deployedAt: '2026-11-26T00:00:00.000Z' as string | undefined };
  const fetchFake = vi.fn(async (url: string | URL | Request) => {
    const href = String(url);
    origin.fetched.push(href);
    if (href === LIVE_URL) return new Response(manifest(origin.live, origin.deployedAt ? `versions/${origin.live}/` : '', origin.deployedAt));
    const match = /\/versions\/([^/]+)\/mf-manifest\.json$/.exec(href);
    if (match && origin.published.has(match[1]!)) return new Response(manifest(match[1]!));
    return new Response('Not Found', { status: 404 });
  }) as unknown as typeof fetch;
  const disposed: string[] = [];
  const registered = new Map<string, string>();
  const runtime = {
    registrations: [] as { name: string; entry: string; force: boolean | undefined }[],
    loads: [] as string[],
    registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }) {
      for (const remote of remotes) {
        runtime.registrations.push({ name: remote.name, entry: remote.entry, force: options?.force });
        registered.set(remote.name, remote.entry);
      }
    },
    async loadRemote<T>(id: string): Promise<T | null> {
      runtime.loads.push(id);
      const entry = registered.get(id.split('/')[0]!)!;
      // Like the real runtime: the build is whatever the registered manifest URL holds now.
      const version = entry === LIVE_URL ? origin.live : /versions\/([^/]+)\//.exec(entry)![1]!;
      const module: IslandServerModule = {
        islandApiVersion: ISLAND_API_VERSION,
        render: async () => ({ html: `<p>${version}</p>` }),
        dispose: () => void disposed.push(version),
      };
      return module as T;
    },
  };
  const _typed: FederationRuntime = runtime;
  return { origin, fetchFake, runtime, disposed };
}

export function federationFor(remote: ReturnType<typeof fakeOrigin>, extra: Partial<ConstructorParameters<typeof ServerFederation>[0]> = {}) {
  return new ServerFederation({
    remotes: [{ name: 'mf-hello', entry: LIVE_URL }],
    runtime: remote.runtime,
    hopTimeoutMs: 500,
    disposeDelayMs: 1,
    fetch: remote.fetchFake,
    log: { error: () => {}, info: () => {} },
    ...extra,
  });
}

