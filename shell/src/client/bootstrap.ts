import { containerName, getPageBus, type IslandContext, type IslandModule } from 'contracts';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { readConsent, startConsentPanel, startCookieSettingsLinks } from './consent.js';
import { startConsentBanner } from './consentBanner.js';
import { createPageReporter } from './failureBeacon.js';
import { contractsCompatibilityPlugin, failureReportPlugin, loadTimeoutPlugin, retryPlugin } from './federationPlugins/index.js';
import { readPageConfig } from './readPageConfig.js';
import { startIslandRuntime } from './islandRuntime.js';
import { startSiteSearchTracking } from './siteSearchTracking.js';

const config = readPageConfig(document);
if (config) {
  const bus = getPageBus();
  const context: IslandContext = { bus, config, getConsent: readConsent };
  // Consent first, before any island: the banner shows (or stays hidden) and the "Cookie settings"
  // links work from the runtime's start, not at a remote's idle enhancement.
  startConsentBanner(document, bus);
  startConsentPanel(document, bus);
  startCookieSettingsLinks(document, bus);
  startSiteSearchTracking(bus, readConsent);
  // One beacon per page: the builds it ran (its views, for failure rates per build) and its failures.
  const reporter = createPageReporter();
  const reportFailure = reporter.reportFailure;
  // Order matters where hooks chain: the deadline plugin owns `fetch`, retries go through it.
  registerPlugins([
    loadTimeoutPlugin({ timeoutMs: config.remoteTimeoutMs }),
    retryPlugin(),
    contractsCompatibilityPlugin(),
    failureReportPlugin(reportFailure, reporter.recordBuild),
  ]);
  const runtime = startIslandRuntime({
    root: document,
    context,
    reportFailure,
    registerRemotes: (remotes) =>
      registerRemotes(remotes.map((remote) => ({ name: containerName(remote.name), alias: remote.name, entry: remote.entry }))),
    loadModule: (id) => loadRemote<IslandModule>(id),
  });
  window.addEventListener('pagehide', (event) => {
    reporter.flush();
    if (!event.persisted) runtime.unmountAll();
  });
}
