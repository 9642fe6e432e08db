export { mountReactIsland, islandTree, type MountReactIslandOptions } from './mountReactIsland.js';
