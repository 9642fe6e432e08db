import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_ISLAND_STAGES,
  ISLAND_ERROR_CODES,
  SERVER_ISLAND_STAGE_CODES,
  isBrowserIslandStage,
  type IslandErrorCode,
} from './islandErrorCodes.js';

/** The README's code table: per code, the stages named in its browser and server columns. */
function readmeCodeTable(): Map<string, { browser: string[]; server: string[] }> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = new Map<string, { browser: string[]; server: string[] }>();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const code = /^`(KHS-ISLAND-\d{3})`$/.exec(cells[1] ?? '')?.[1];
    if (!code) continue;
    const stages = (cell: string) => [...cell.matchAll(/`([a-z]+)`/g)].map((match) => match[1]!);
    table.set(code, { browser: stages(cells[3]!), server: stages(cells[4]!) });
  }
  return table;
}

describe('island failure stages', () => {
  const table = readmeCodeTable();

  it('the README table lists every code, and only those', () => {
    expect([...table.keys()].sort()).toEqual(Object.keys(ISLAND_ERROR_CODES).sort());
  });

  it("the README's browser column names browser stages only, and every one of them", () => {
    const named = new Set([...table.values()].flatMap((row) => row.browser));
    expect([...named].sort()).toEqual([...BROWSER_ISLAND_STAGES].sort());
  });

  it("the README's server column names server stages only, each on the row of its default code", () => {
    const named = new Set([...table.values()].flatMap((row) => row.server));
    expect([...named].sort()).toEqual(Object.keys(SERVER_ISLAND_STAGE_CODES).sort());
    for (const [stage, code] of Object.entries(SERVER_ISLAND_STAGE_CODES)) {
      expect(table.get(code as IslandErrorCode)?.server).toContain(stage);
    }
  });

  it('tells a browser stage from anything else', () => {
    expect(isBrowserIslandStage('hydrate')).toBe(true);
    expect(isBrowserIslandStage('render')).toBe(false);
    expect(isBrowserIslandStage('toString')).toBe(false);
    expect(isBrowserIslandStage(undefined)).toBe(false);
  });
});
