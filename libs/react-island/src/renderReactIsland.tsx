import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { IslandRenderResult } from 'contracts';
import { islandTree } from './mountReactIsland.js';

/**
 * Server half of `mountReactIsland`: renders the same tree (same error boundary, so `useId`
 * values match) to the island's inner HTML. `state` goes to the browser mount as
 * `context.hydration.state`.
 */
export function renderReactIsland(name: string, node: ReactNode, state?: unknown): IslandRenderResult {
  const html = renderToString(islandTree(name, node));
  return state === undefined ? { html } : { html, state };
}
