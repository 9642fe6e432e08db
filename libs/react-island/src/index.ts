export { mountReactIsland, islandTree, type MountReactIslandOptions } from './mountReactIsland.js';
export { useIslandReady } from './useIslandReady.js';
