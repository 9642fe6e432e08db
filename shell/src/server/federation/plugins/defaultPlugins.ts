import type { ServerFederationPlugin } from '../serverFederationPlugin.js';
import { contractsCompatibilityPlugin } from './contractsCompatibilityPlugin.js';
import { delayedDisposePlugin } from './delayedDisposePlugin.js';
import { islandInterfacePlugin } from './islandInterfacePlugin.js';
import { newBuildLogPlugin } from './newBuildLogPlugin.js';
import { serverBuildRequiredPlugin } from './serverBuildRequiredPlugin.js';

/** The policies every shell runs (the order is the order of their checks). */
export function defaultServerFederationPlugins(options: { disposeDelayMs?: number; log?: Pick<Console, 'error' | 'info'> } = {}): ServerFederationPlugin[] {
  return [
    serverBuildRequiredPlugin(),
    contractsCompatibilityPlugin(),
    islandInterfacePlugin(),
    delayedDisposePlugin({ ...(options.disposeDelayMs !== undefined ? { delayMs: options.disposeDelayMs } : {}), ...(options.log ? { log: options.log } : {}) }),
    newBuildLogPlugin(options.log),
  ];
}
