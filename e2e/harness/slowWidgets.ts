// A test variant of mf-widgets whose server renders of FileField (the contact form's attachment
// field) and PageWidgets (in every page's `page.end` slot) are slow (issue 37: the team services'
// pages stream like the shell's own), for the streaming e2e spec.
import { buildRemoteFromChangedSource } from './remoteVariant.js';

/** Only the slow variant's server renders carry this (an HTML comment at the end of each island's HTML). */
export const SLOW_WIDGETS_MARKER = '<!--khs-test:slow-widgets-render-->';

/**
 * The environment variable of the shell that names a gate (a URL): with it, the variant's slow
 * renders also wait for a GET of that URL to answer, so a test decides when the islands may render.
 */
export const SLOW_WIDGETS_GATE_ENV = 'KHS_TEST_WIDGETS_GATE_URL';

/** The wait the variant's renders make first: `delayMs`, then the gate when the shell names one. */
function slowdown(delayMs: number): string {
  return (
    `await new Promise((resolve) => setTimeout(resolve, ${Number(delayMs)}));\n` +
    `  const gate = globalThis.process?.env?.${SLOW_WIDGETS_GATE_ENV};\n` +
    `  if (gate) await (await fetch(gate)).text();\n`
  );
}

/**
 * Builds mf-widgets from a copy of its source whose FileField and PageWidgets server renders wait
 * `delayMs` first (then for the gate named by `SLOW_WIDGETS_GATE_ENV`), render afresh for every
 * page (no reuse by the shell's render cache) and end their HTML with `SLOW_WIDGETS_MARKER`.
 * Both islands mount nothing of their own markup in the browser (FileField is server markup,
 * PageWidgets enhances the page), so the comment changes nothing there. Returns the build's `dist`
 * (serve it with `stack.serveRemote('mf-widgets', dist)`) and its work folder (remove it afterwards).
 */
export async function buildSlowWidgets(delayMs: number): Promise<{ dist: string; work: string }> {
  const fileField = 'src/islands/FileField.server.tsx';
  const pageWidgets = 'src/islands/PageWidgets.server.ts';
  const noReuse = { from: 'export const cacheTtlMs = ISLAND_CACHE_TTL_MS;', to: 'export const cacheTtlMs = 0 * ISLAND_CACHE_TTL_MS;' };
  const { dist, work } = await buildRemoteFromChangedSource('mf-widgets', [
    { file: fileField, ...noReuse },
    {
      file: fileField,
      from: '  return { html: renderToString(<FileField {...fields} />) };',
      to: `  ${slowdown(delayMs)}  return { html: renderToString(<FileField {...fields} />) + ${JSON.stringify(SLOW_WIDGETS_MARKER)} };`,
    },
    { file: pageWidgets, ...noReuse },
    {
      file: pageWidgets,
      from: "export const render: IslandRender = async () => ({ html: '' });",
      to: `export const render: IslandRender = async () => {\n  ${slowdown(delayMs)}  return { html: ${JSON.stringify(SLOW_WIDGETS_MARKER)} };\n};`,
    },
  ]);
  return { dist, work };
}
