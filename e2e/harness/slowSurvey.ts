// A test variant of mf-survey whose server render is slow (issue 37: streamed pages), for the
// streaming e2e spec and the first-byte benchmark (`scripts/bench-foundation.ts`).
import { buildRemoteFromChangedSource } from './remoteVariant.js';

/** Only the slow variant's server render carries this (its island state, written right after the island's HTML). */
export const SLOW_SURVEY_MARKER = '"release":"slow-server-render"';

/**
 * The environment variable of the shell that names a gate (a URL): with it, the variant's server
 * render also waits for a GET of that URL to answer, so a test decides when the island may render.
 */
export const SLOW_SURVEY_GATE_ENV = 'KHS_TEST_SURVEY_GATE_URL';

/**
 * Builds mf-survey from a copy of its source whose server render waits `delayMs` first (then for
 * the gate named by `SLOW_SURVEY_GATE_ENV`, when the shell has one), renders
 * afresh for every page (no reuse by the shell's render cache) and marks its island state with
 * `SLOW_SURVEY_MARKER`. The markup is the browser build's own, so the page hydrates as usual.
 * Returns the build's `dist` (serve it with `stack.serveRemote('mf-survey', dist)`) and its
 * work folder (remove it afterwards).
 */
export async function buildSlowSurvey(delayMs: number): Promise<{ dist: string; work: string }> {
  const file = 'src/islands/Survey.server.tsx';
  const { dist, work } = await buildRemoteFromChangedSource('mf-survey', [
    { file, from: 'export const cacheTtlMs = ISLAND_CACHE_TTL_MS;', to: 'export const cacheTtlMs = 0 * ISLAND_CACHE_TTL_MS;' },
    {
      file,
      from: "  if (typeof props?.formHandle !== 'string'",
      to:
        `  await new Promise((resolve) => setTimeout(resolve, ${Number(delayMs)}));\n` +
        `  const gate = globalThis.process?.env?.${SLOW_SURVEY_GATE_ENV};\n` +
        `  if (gate) await (await fetch(gate)).text();\n` +
        `  if (typeof props?.formHandle !== 'string'`,
    },
    { file, from: '      hydrating\n    />,\n', to: "      hydrating\n    />,\n    { release: 'slow-server-render' },\n" },
  ]);
  return { dist, work };
}
