// @vitest-environment jsdom
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRemoteConfig, createRemoteDevConfigs } from './index.mjs';
import { hotIslandExposes, writeDevBuildVersion } from './dev/devBuild.mjs';
import { PrecompressPlugin } from './precompress.mjs';
import { ContractsVersionManifestPlugin, contractsPackage } from './contractsVersion.mjs';

const SURVEY_DIR = path.resolve(import.meta.dirname, '../../mf-survey');
let work;
beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'khs-preset-dev-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('createRemoteDevConfigs', () => {
  it('builds browser and server targets into the dev folder, with the contracts version in the manifest, no compressed copies, production React', () => {
    const configs = createRemoteDevConfigs({
      dir: SURVEY_DIR,
      name: 'mf_survey',
      exposes: { './Survey': './src/islands/Survey.tsx' },
      serverExposes: { './Survey': './src/islands/Survey.server.tsx' },
      outDir: path.join(work, 'build'),
      wrapperDir: path.join(work, 'exposes'),
      eventsPath: '/__khs-dev/events',
    });
    expect(configs.map((config) => config.name)).toEqual(['browser', 'server']);
    const [browser, server] = configs;
    expect(browser.output.path).toBe(path.join(work, 'build'));
    expect(server.output.path).toBe(path.join(work, 'build', 'server'));
    expect(browser.output.clean).toBe(false);
    const contracts = browser.plugins.find((plugin) => plugin instanceof ContractsVersionManifestPlugin);
    expect(contracts?.version).toBe(contractsPackage(SURVEY_DIR).version);
    expect(browser.plugins.some((plugin) => plugin instanceof PrecompressPlugin)).toBe(false);
    for (const config of configs) {
      expect(config.devServer).toBeUndefined();
      expect(config.optimization.nodeEnv).toBe('production');
      const swc = config.module.rules.find((rule) => rule.loader === 'builtin:swc-loader');
      expect(swc.options.jsc.transform.react.development).toBe(false);
    }
    expect(browser.output.chunkLoadingGlobal).toBe('khsDevChunks_mf_survey');
    expect(JSON.stringify(browser.plugins)).toContain('__KHS_DEV_EVENTS_PATH__');
  });
});

describe('production builds', () => {
  it('carry no dev code: exposes are the remote\'s own modules, no dev event path, compressed copies', () => {
    const exposes = { './Survey': './src/islands/Survey.tsx' };
    const configs = createRemoteConfig({ dir: SURVEY_DIR, name: 'mf_survey', exposes, serverExposes: { './Survey': './src/islands/Survey.server.tsx' }, devPort: 4312 })({}, { mode: 'production' });
    const browser = configs.find((config) => config.name === 'browser');
    const federation = browser.plugins.find((plugin) => plugin?.constructor?.name === 'ModuleFederationPlugin');
    expect(JSON.stringify(federation._options.exposes)).toBe(JSON.stringify({ ...exposes, './Standalone': './src/standalone/bootstrap' }));
    expect(JSON.stringify(browser.plugins)).not.toContain('__KHS_DEV_EVENTS_PATH__');
    expect(browser.output.chunkLoadingGlobal).toBeUndefined();
    expect(browser.plugins.some((plugin) => plugin instanceof PrecompressPlugin)).toBe(true);
  });
});

describe('hotIslandExposes', () => {
  it('points each expose at a wrapper that re-exports the real module and wraps its mount', () => {
    const exposes = hotIslandExposes({ dir: SURVEY_DIR, remote: 'mf-survey', exposes: { './Survey': './src/islands/Survey.tsx' }, wrapperDir: work });
    expect(exposes).toEqual({ './Survey': path.join(work, 'Survey.mjs') });
    const wrapper = readFileSync(exposes['./Survey'], 'utf8');
    const real = JSON.stringify(path.join(SURVEY_DIR, 'src/islands/Survey.tsx'));
    expect(wrapper).toContain(`import * as exposed from ${real};`);
    expect(wrapper).toContain(`export * from ${real};`);
    expect(wrapper).toContain('export default hotIslandMount(exposed.default, { remote: "mf-survey", expose: "Survey" });');
  });
});

describe('writeDevBuildVersion', () => {
  it('writes the package version plus a hash of the files, another for another file', () => {
    const build = path.join(work, 'build');
    mkdirSync(path.join(build, 'server'), { recursive: true });
    writeFileSync(path.join(build, 'mf-manifest.json'), JSON.stringify({ metaData: { name: 'mf_survey' } }));
    writeFileSync(path.join(build, 'server', 'remoteEntry.js'), 'exports.a = 1;');
    const first = writeDevBuildVersion(SURVEY_DIR, build);
    expect(first).toMatch(/^0\.1\.0\+[0-9a-f]{12}$/);
    expect(JSON.parse(readFileSync(path.join(build, 'mf-manifest.json'), 'utf8')).metaData.buildVersion).toBe(first);
    expect(writeDevBuildVersion(SURVEY_DIR, build)).toBe(first);
    writeFileSync(path.join(build, 'server', 'remoteEntry.js'), 'exports.a = 2;');
    expect(writeDevBuildVersion(SURVEY_DIR, build)).not.toBe(first);
  });
});

describe('hotIslandMount (browser)', () => {
  /** A minimal EventSource the test drives. */
  class FakeEventSource {
    static last;
    constructor(url) {
      this.url = url;
      this.listeners = new Map();
      FakeEventSource.last = this;
    }
    addEventListener(type, listener) {
      this.listeners.set(type, listener);
    }
    emit(type, data) {
      this.listeners.get(type)?.({ data: JSON.stringify(data) });
    }
  }

  beforeEach(() => {
    vi.resetModules();
    delete globalThis[Symbol.for('khs.dev.hotIslands')];
    globalThis.__KHS_DEV_EVENTS_PATH__ = '/__khs-dev/events';
    globalThis.__KHS_DEV_CHUNK_GLOBAL__ = 'khsDevChunks_mf_survey';
    globalThis.EventSource = FakeEventSource;
  });
  afterEach(() => {
    delete globalThis.__FEDERATION__;
    delete globalThis.EventSource;
  });

  it('on its remote\'s rebuild, swaps each mounted island for the new build in place, without the server state; other remotes\' events change nothing', async () => {
    const { hotIslandMount } = await import('./dev/hotIslandMount.mjs');
    const element = document.createElement('div');
    document.body.append(element);
    const oldUnmount = vi.fn();
    const oldMount = vi.fn(async (target) => {
      target.textContent = 'old';
      return oldUnmount;
    });
    const context = { bus: {}, config: {}, hydration: { state: { votes: 1 } } };
    const unmountFromShell = await hotIslandMount(oldMount, { remote: 'mf-survey', expose: 'Survey' })(element, { formHandle: 'f' }, context);
    expect(element.textContent).toBe('old');
    expect(FakeEventSource.last.url).toBe('/__khs-dev/events');

    const newUnmount = vi.fn();
    const newMount = vi.fn(async (target) => {
      target.textContent = 'new';
      return newUnmount;
    });
    // Like the runtime: every forced registration of a known name warns.
    const registerRemotes = vi.fn((remotes) =>
      console.warn(`[ Federation Runtime ]: The remote "${remotes[0].name}" is already registered. Please note that overriding it may cause unexpected errors.`),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    element.style.minHeight = '1px';
    const loadRemote = vi.fn(async () => ({ default: hotIslandMount(newMount, { remote: 'mf-survey', expose: 'Survey' }) }));
    globalThis.__FEDERATION__ = {
      __INSTANCES__: [{ options: { remotes: [{ name: 'mf_survey', alias: 'mf-survey', entry: 'http://origin/mf-manifest.json' }] }, registerRemotes, loadRemote }],
    };
    globalThis.khsDevChunks_mf_survey = [['old chunk']];

    FakeEventSource.last.emit('rebuilt', { remote: 'mf-search', buildVersion: '0.1.0+other' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(registerRemotes).not.toHaveBeenCalled();

    FakeEventSource.last.emit('rebuilt', { remote: 'mf-survey', buildVersion: '0.1.0+bbbbbbbbbbbb', manifestUrl: 'http://origin/live/mf-manifest.json' });
    await vi.waitFor(() => expect(document.documentElement.getAttribute('data-khs-dev-build')).toBe('mf-survey@0.1.0+bbbbbbbbbbbb'));
    // The live manifest the shell named, not the one the page had registered (it may have been pinned).
    expect(registerRemotes).toHaveBeenCalledWith([{ name: 'mf_survey', alias: 'mf-survey', entry: 'http://origin/live/mf-manifest.json' }], { force: true });
    expect(globalThis.khsDevChunks_mf_survey).toBeUndefined();
    expect(loadRemote).toHaveBeenCalledWith('mf-survey/Survey');
    expect(oldUnmount).toHaveBeenCalledTimes(1);
    expect(element.textContent).toBe('new');
    expect(newMount).toHaveBeenCalledWith(element, { formHandle: 'f' }, { bus: {}, config: {} });
    // The replacement is the swap's purpose: the runtime's warning about it is left out; the
    // island's own height hold (kept while it was empty) is given back.
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(element.style.minHeight).toBe('1px');

    // The shell's unmount (it holds the first build's) unmounts what is mounted now.
    unmountFromShell();
    expect(newUnmount).toHaveBeenCalledTimes(1);
    expect(oldUnmount).toHaveBeenCalledTimes(1);
  });
});
