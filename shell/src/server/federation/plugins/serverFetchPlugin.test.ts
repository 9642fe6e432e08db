import { describe, expect, it, vi } from 'vitest';
import { BuildFolders } from './buildFolders.js';
import { serverFetchPlugin } from './serverFetchPlugin.js';

const ORIGIN = 'http://cdn.test/mf-a/';

/** An origin holding each build's server files in its own folder. */
function origin(files: Record<string, string>) {
  const asked: string[] = [];
  const fetchFake = vi.fn(async (url: string | URL | Request) => {
    asked.push(String(url));
    const body = files[String(url)];
    return body === undefined ? new Response('Not Found', { status: 404 }) : new Response(body);
  }) as unknown as typeof fetch;
  return { asked, fetchFake };
}

describe('BuildFolders', () => {
  it("names the same file in the other builds' folders of that container, most recently loaded first", () => {
    const folders = new BuildFolders();
    folders.record('mf_a', `${ORIGIN}versions/v1/server/remoteEntry.js`);
    folders.record('mf_b', 'http://cdn.test/mf-b/versions/v1/server/remoteEntry.js');
    folders.record('mf_a', `${ORIGIN}versions/v2/server/remoteEntry.js`);
    folders.record('mf_a', `${ORIGIN}versions/v3/server/remoteEntry.js`);
    expect(folders.alternativesFor(`${ORIGIN}versions/v1/server/12.abcd.js`)).toEqual([`${ORIGIN}versions/v3/server/12.abcd.js`, `${ORIGIN}versions/v2/server/12.abcd.js`]);
    expect(folders.alternativesFor('http://cdn.test/mf-b/versions/v1/server/1.js')).toEqual([]);
    expect(folders.alternativesFor('http://elsewhere.test/x/1.js')).toEqual([]);
  });

  it('remembers a bounded number of folders per container', () => {
    const folders = new BuildFolders();
    for (let build = 0; build < 40; build += 1) folders.record('mf_a', `${ORIGIN}versions/v${build}/server/remoteEntry.js`);
    expect(folders.alternativesFor(`${ORIGIN}versions/v39/server/1.js`)).toHaveLength(15);
    expect(folders.alternativesFor(`${ORIGIN}versions/v0/server/1.js`)).toEqual([]);
  });
});

describe('serverFetchPlugin', () => {
  it("fetches a chunk the runtime looked for in another build's folder from the build that has it", async () => {
    const folders = new BuildFolders();
    folders.record('mf_a', `${ORIGIN}versions/v1/server/remoteEntry.js`);
    folders.record('mf_a', `${ORIGIN}versions/v2/server/remoteEntry.js`);
    const { asked, fetchFake } = origin({ [`${ORIGIN}versions/v2/server/7.v2only.js`]: 'v2 chunk', [`${ORIGIN}versions/v1/server/8.shared.js`]: 'shared chunk' });
    const plugin = serverFetchPlugin({ fetch: fetchFake, timeoutMs: 500, folders });
    const fetchHook = plugin.fetch as (url: string, init: RequestInit) => Promise<Response>;
    expect(await (await fetchHook(`${ORIGIN}versions/v1/server/7.v2only.js`, {})).text()).toBe('v2 chunk');
    expect(await (await fetchHook(`${ORIGIN}versions/v1/server/8.shared.js`, {})).text()).toBe('shared chunk');
    expect(asked).toEqual([`${ORIGIN}versions/v1/server/7.v2only.js`, `${ORIGIN}versions/v2/server/7.v2only.js`, `${ORIGIN}versions/v1/server/8.shared.js`]);
  });

  it('fails with the first 404 when no build has the file, and at once on any other error', async () => {
    const folders = new BuildFolders();
    folders.record('mf_a', `${ORIGIN}versions/v1/server/remoteEntry.js`);
    folders.record('mf_a', `${ORIGIN}versions/v2/server/remoteEntry.js`);
    const { asked, fetchFake } = origin({});
    const fetchHook = serverFetchPlugin({ fetch: fetchFake, timeoutMs: 500, folders }).fetch as (url: string, init: RequestInit) => Promise<Response>;
    await expect(fetchHook(`${ORIGIN}versions/v1/server/9.js`, {})).rejects.toThrow(`HTTP 404 for ${ORIGIN}versions/v1/server/9.js`);
    expect(asked).toHaveLength(2);
    const failing = vi.fn(async () => new Response('boom', { status: 500 })) as unknown as typeof fetch;
    const strict = serverFetchPlugin({ fetch: failing, timeoutMs: 500, folders }).fetch as (url: string, init: RequestInit) => Promise<Response>;
    await expect(strict(`${ORIGIN}versions/v1/server/9.js`, {})).rejects.toThrow('HTTP 500');
    expect(failing).toHaveBeenCalledTimes(1);
  });
});
