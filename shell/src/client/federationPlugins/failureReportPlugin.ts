import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { parseIslandName } from 'contracts';
import type { IslandFailureReport } from '../../shared/islandFailureReport.js';
import { islandLoadFailure } from './islandLoadError.js';

/** What a remote's manifest says about the build, for reports. */
interface BuildFacts {
  remoteVersion?: string;
  contractsVersion?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * Reports every failed island load once it is final (the runtime's `errorLoadRemote` at `onLoad`,
 * after retries and recoveries), with its stable code and stage and, when the manifest was read,
 * the remote's build version and contracts version.
 * @param onBuild  Told each remote's build version as its manifest is read (the page's view of
 *   that build, for the page report). Default: nothing.
 */
export function failureReportPlugin(report: (failure: IslandFailureReport) => void, onBuild: (remote: string, buildVersion: string) => void = () => {}): ModuleFederationRuntimePlugin {
  const facts = new Map<string, BuildFacts>();
  return {
    name: 'khs-failure-report',
    afterLoadManifest({ moduleInfo, manifestJson }) {
      const metaData = manifestJson?.metaData as { buildVersion?: unknown; buildInfo?: { buildVersion?: unknown }; contractsVersion?: unknown } | undefined;
      if (!metaData) return;
      const remoteVersion = text(metaData.buildVersion) ?? text(metaData.buildInfo?.buildVersion);
      const contractsVersion = text(metaData.contractsVersion);
      const remote = moduleInfo.alias ?? moduleInfo.name;
      facts.set(remote, { ...(remoteVersion ? { remoteVersion } : {}), ...(contractsVersion ? { contractsVersion } : {}) });
      if (remoteVersion) onBuild(remote, remoteVersion);
    },
    errorLoadRemote({ id, error, lifecycle, remote }) {
      // Earlier lifecycles may still recover (retries); `onLoad` is the load's final failure.
      if (lifecycle !== 'onLoad') return undefined;
      const parsed = parseIslandName(id);
      const name = parsed?.remote ?? remote?.alias ?? remote?.name ?? id;
      const { code, stage } = islandLoadFailure(error);
      report({ remote: name, ...(parsed ? { module: `./${parsed.module}` } : {}), stage, code, ...facts.get(name) });
      return undefined;
    },
  };
}
