// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { ISLAND_HYDRATION_MISMATCH_EVENT, createPageBus, examplePageConfig, type IslandContext, type IslandModule } from 'contracts';
import { startIslandRuntime, type ModuleLoader } from './islandRuntime.js';
import { IslandLoadError } from './federationPlugins/islandLoadError.js';

function page(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

const context: IslandContext = {
  bus: createPageBus(),
  config: examplePageConfig({
    remotes: [
      { name: 'mf-a', entry: 'http://a.test/mf-manifest.json' },
      { name: 'mf-b', entry: 'http://b.test/mf-manifest.json' },
      { name: 'mf-unused', entry: 'http://unused.test/mf-manifest.json' },
    ],
  }),
  getConsent: () => ({ insights: false, tracking: false }),
};

const mountingModule = (text: string): IslandModule => ({
  default: (element, props) => {
    element.textContent = `${text}:${JSON.stringify(props)}`;
    return () => {
      element.textContent = 'unmounted';
    };
  },
});

describe('island runtime', () => {
  it('registers only the remotes the page uses and mounts each island with its props', async () => {
    const root = page(`
      <div data-island="mf-a/One" data-props='{"id":"1"}'>fallback a</div>
      <div data-island="mf-b/Two">fallback b</div>`);
    const registerRemotes = vi.fn();
    const loadModule: ModuleLoader = async (id) => mountingModule(id);
    const runtime = startIslandRuntime({ root, context, registerRemotes, loadModule });
    await runtime.ready;
    expect(registerRemotes).toHaveBeenCalledWith([context.config.remotes[0], context.config.remotes[1]]);
    const [a, b] = root.querySelectorAll('[data-island]');
    expect(a!.textContent).toBe('mf-a/One:{"id":"1"}');
    expect(b!.textContent).toBe('mf-b/Two:{}');
    expect(a!.getAttribute('data-island-state')).toBe('mounted');
    runtime.unmountAll();
    expect(a!.textContent).toBe('unmounted');
  });

  it('leaves an island the server found empty alone: no remote registered or loaded, state "empty"', async () => {
    const root = page(`
      <div data-island="mf-a/One" data-props='{"articleId":"a"}'></div><script type="application/json" data-island-ssr="">{"state":null,"empty":true}</script>
      <div data-island="mf-b/Two" data-props='{}'><p>b</p></div><script type="application/json" data-island-ssr="">{"state":null}</script>`);
    const registerRemotes = vi.fn();
    const loadModule = vi.fn<ModuleLoader>(async (id) => mountingModule(id));
    const runtime = startIslandRuntime({ root, context, registerRemotes, loadModule });
    await runtime.ready;
    const [a, b] = root.querySelectorAll('[data-island]');
    expect(a!.getAttribute('data-island-state')).toBe('empty');
    expect(a!.innerHTML).toBe('');
    expect(b!.getAttribute('data-island-state')).toBe('mounted');
    expect(loadModule.mock.calls.map(([id]) => id)).toEqual(['mf-b/Two']);
    expect(registerRemotes).toHaveBeenCalledWith([context.config.remotes[1]]);
  });

  it('keeps the fallback of a remote that fails to load, logs once per remote, mounts the rest', async () => {
    const root = page(`
      <div data-island="mf-a/One"><b>fallback 1</b></div>
      <div data-island="mf-a/Two"><b>fallback 2</b></div>
      <div data-island="mf-b/Ok">fallback b</div>`);
    const log = { error: vi.fn() };
    const loadModule: ModuleLoader = async (id) => {
      if (id.startsWith('mf-a/')) throw new Error('manifest answered 404');
      return mountingModule(id);
    };
    await startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule, log }).ready;
    const islands = root.querySelectorAll('[data-island]');
    expect(islands[0]!.innerHTML).toBe('<b>fallback 1</b>');
    expect(islands[1]!.innerHTML).toBe('<b>fallback 2</b>');
    expect(islands[0]!.getAttribute('data-island-state')).toBe('failed');
    expect(islands[2]!.textContent).toBe('mf-b/Ok:{}');
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(String(log.error.mock.calls[0]![0])).toContain('"mf-a"');
  });

  it('logs a failed load with its stable code and leaves reporting it to the loader (the federation plugins)', async () => {
    const root = page('<div data-island="mf-a/Slow">fallback</div>');
    const log = { error: vi.fn() };
    const reportFailure = vi.fn();
    const loadModule: ModuleLoader = async () => {
      throw new IslandLoadError('KHS-ISLAND-003', 'manifest', 'no answer within 500 ms (request aborted)');
    };
    await startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule, log, reportFailure }).ready;
    expect(root.textContent).toBe('fallback');
    expect(String(log.error.mock.calls[0]![0])).toBe('[shell] KHS-ISLAND-003 remote "mf-a" failed (stage: manifest); its islands keep their server markup');
    expect(reportFailure).not.toHaveBeenCalled();
  });

  it('reports what only it sees: a mount or hydration that threw (007), a missing mount export (006), a page naming an unknown remote (009)', async () => {
    const root = page(`
      <div data-island="mf-a/Throws">a</div>
      <div data-island="mf-a/Hydrates">b</div><script type="application/json" data-island-ssr>{"state":1}</script>
      <div data-island="mf-b/NoExport">c</div>
      <div data-island="mf-nowhere/X">d</div>`);
    const reportFailure = vi.fn();
    const loadModule: ModuleLoader = async (id) =>
      id === 'mf-b/NoExport'
        ? ({} as IslandModule)
        : {
            default: () => {
              throw new Error(`${id} broke`);
            },
          };
    await startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule, log: { error: () => {} }, reportFailure }).ready;
    const reports = reportFailure.mock.calls.map(([report]) => report);
    expect(reports).toHaveLength(4);
    expect(reports).toEqual(
      expect.arrayContaining([
        { remote: 'mf-a', module: './Throws', stage: 'mount', code: 'KHS-ISLAND-007' },
        { remote: 'mf-a', module: './Hydrates', stage: 'hydrate', code: 'KHS-ISLAND-007' },
        { remote: 'mf-b', module: './NoExport', stage: 'expose', code: 'KHS-ISLAND-006' },
        { remote: 'mf-nowhere', stage: 'mount', code: 'KHS-ISLAND-009' },
      ]),
    );
  });

  it('reports a hydration mismatch an island signals as KHS-ISLAND-010 of its remote, and stops listening once unmounted', async () => {
    const root = page(`<div data-island="mf-a/Mismatch">a</div><script type="application/json" data-island-ssr>{"state":1}</script>`);
    const reportFailure = vi.fn();
    const loadModule: ModuleLoader = async () => ({
      default: (element) => {
        element.dispatchEvent(new CustomEvent(ISLAND_HYDRATION_MISMATCH_EVENT, { bubbles: true }));
        return () => {};
      },
    });
    const runtime = startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule, reportFailure });
    await runtime.ready;
    expect(reportFailure.mock.calls).toEqual([[{ remote: 'mf-a', module: './Mismatch', stage: 'hydrate', code: 'KHS-ISLAND-010' }]]);
    expect(root.querySelector('[data-island]')!.getAttribute('data-island-state')).toBe('mounted');
    runtime.unmountAll();
    root.querySelector('[data-island]')!.dispatchEvent(new CustomEvent(ISLAND_HYDRATION_MISMATCH_EVENT, { bubbles: true }));
    expect(reportFailure).toHaveBeenCalledTimes(1);
  });

  it('restores the fallback when mount throws after touching the element', async () => {
    const root = page('<div data-island="mf-a/Broken"><i>server markup</i></div><div data-island="mf-b/Ok"></div>');
    const log = { error: vi.fn() };
    const loadModule: ModuleLoader = async (id) =>
      id === 'mf-a/Broken'
        ? {
            default: (element) => {
              element.innerHTML = 'half-rendered';
              throw new Error('mount failed');
            },
          }
        : mountingModule(id);
    await startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule, log }).ready;
    expect(root.querySelector('[data-island="mf-a/Broken"]')!.innerHTML).toBe('<i>server markup</i>');
    expect(root.querySelector('[data-island="mf-b/Ok"]')!.textContent).toBe('mf-b/Ok:{}');
    expect(String(log.error.mock.calls[0]![0])).toContain('KHS-ISLAND-007 remote "mf-a" failed (stage: mount)');
  });

  it('keeps islands with malformed props, missing exports or unknown remotes as they are', async () => {
    const root = page(`
      <div data-island="mf-a/BadProps" data-props="{oops">a</div>
      <div data-island="mf-b/NoExport">b</div>
      <div data-island="mf-nowhere/X">c</div>
      <div data-island="not a name">d</div>`);
    const log = { error: vi.fn() };
    const loadModule: ModuleLoader = async () => ({}) as IslandModule;
    await startIslandRuntime({ root, context, registerRemotes: () => {}, loadModule, log }).ready;
    expect([...root.querySelectorAll('[data-island]')].map((el) => el.textContent)).toEqual(['a', 'b', 'c', 'd']);
    expect(log.error).toHaveBeenCalledTimes(4);
  });
});
