// The shell's Module Federation runtime plugins, one responsibility each (registered in bootstrap.ts).
export { contractsCompatibilityPlugin } from './contractsCompatibilityPlugin.js';
export { failureReportPlugin } from './failureReportPlugin.js';
export { IslandLoadError, islandLoadFailure, type IslandFailureKind } from './islandLoadError.js';
export { loadTimeoutPlugin, isTransientStatus } from './loadTimeoutPlugin.js';
export { retryPlugin, backoffDelay } from './retryPlugin.js';
