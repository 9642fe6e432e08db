import { describe, expect, it, vi } from 'vitest';
import { failureReportPlugin } from './failureReportPlugin.js';

/** A plugin hook called with only the fields the plugin reads. */
type LooseHook = (args: object) => unknown;

describe('failureReportPlugin', () => {
  it('reports the final failure once, with the code of its cause, and not the intermediate ones a retry may still recover', async () => {
    const report = vi.fn();
    const plugin = failureReportPlugin(report);
    const hook = plugin.errorLoadRemote as LooseHook;
    await hook({ id: 'http://a.test/mf-manifest.json', error: new Error('x'), lifecycle: 'afterResolve' });
    expect(report).not.toHaveBeenCalled();
    await hook({
      id: 'mf-a/Island',
      error: new Error('[ Federation Runtime ]: Failed to load script resources. #RUNTIME-008\nOriginal Error Message:\n ScriptNetworkError: Script "http://a.test/remoteEntry.js" timed out.'),
      lifecycle: 'onLoad',
    });
    expect(report).toHaveBeenCalledWith({ remote: 'mf-a', module: './Island', stage: 'entry', code: 'KHS-ISLAND-003' });
  });

  it('prefers the deployed build version (metaData.buildVersion) over the federation build info', async () => {
    const report = vi.fn();
    const plugin = failureReportPlugin(report);
    (plugin.afterLoadManifest as LooseHook)({
      moduleInfo: { name: 'mf_a', alias: 'mf-a' },
      manifestJson: { metaData: { buildVersion: '1.4.0+3f2a9c', buildInfo: { buildVersion: '0.1.0' }, contractsVersion: '1.2.0' } },
    });
    await (plugin.errorLoadRemote as LooseHook)({ id: 'mf-a/Island', error: new Error('RUNTIME-014'), lifecycle: 'onLoad' });
    expect(report).toHaveBeenCalledWith({
      remote: 'mf-a',
      module: './Island',
      stage: 'expose',
      code: 'KHS-ISLAND-006',
      remoteVersion: '1.4.0+3f2a9c',
      contractsVersion: '1.2.0',
    });
  });

  it('tells each remote build it reads (the page view of that build), and nothing for a manifest without a version', () => {
    const onBuild = vi.fn();
    const plugin = failureReportPlugin(() => {}, onBuild);
    (plugin.afterLoadManifest as LooseHook)({ moduleInfo: { name: 'mf_a', alias: 'mf-a' }, manifestJson: { metaData: { buildVersion: '1.4.0+3f2a9c' } } });
    (plugin.afterLoadManifest as LooseHook)({ moduleInfo: { name: 'mf_b', alias: 'mf-b' }, manifestJson: { metaData: {} } });
    expect(onBuild.mock.calls).toEqual([['mf-a', '1.4.0+3f2a9c']]);
  });
});
