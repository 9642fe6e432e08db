export { mountReactIsland } from './mountReactIsland.js';
