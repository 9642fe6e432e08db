// Server-only entry: imports react-dom/server, so browser builds never import it.
export { renderReactIsland } from './renderReactIsland.js';
