import { containerName, getPageBus, type IslandContext, type IslandModule } from 'contracts';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { readConsent, startConsentPanel } from './consent.js';
import { readPageConfig } from './readPageConfig.js';
import { startIslandRuntime } from './islandRuntime.js';
import { startSiteSearchTracking } from './siteSearchTracking.js';

const config = readPageConfig(document);
if (config) {
  const bus = getPageBus();
  const context: IslandContext = { bus, config, getConsent: readConsent };
  startConsentPanel(document, bus);
  startSiteSearchTracking(bus, readConsent);
  const runtime = startIslandRuntime({
    root: document,
    context,
    timeoutMs: config.remoteTimeoutMs,
    registerRemotes: (remotes) =>
      registerRemotes(remotes.map((remote) => ({ name: containerName(remote.name), alias: remote.name, entry: remote.entry }))),
    loadModule: (id) => loadRemote<IslandModule>(id),
  });
  window.addEventListener('pagehide', (event) => {
    if (!event.persisted) runtime.unmountAll();
  });
}
