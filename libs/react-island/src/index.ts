export { FIRST_COMMIT_TIMEOUT_MS, mountReactIsland, islandTree, type MountReactIslandOptions } from './mountReactIsland.js';
export { useIslandReady } from './useIslandReady.js';
