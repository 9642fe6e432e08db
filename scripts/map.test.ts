import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SLICES } from '@khs/stack/registry';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module without types
import { expectedReadmes, MAP_END, MAP_START, renderMap, withMap } from './map.mjs';

const README = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');

describe('the architecture map in the root README', () => {
  it('is the one the manifests give (run `npm run map` after changing a slice.json)', () => {
    expect(withMap(README)).toBe(README);
  });

  it("and each slice's README says what its manifest declares (`npm run map` writes it)", () => {
    for (const { file, expected } of expectedReadmes() as { file: string; expected: (text: string) => string }[]) {
      const text = readFileSync(file, 'utf8');
      expect(expected(text), file).toBe(text);
    }
  });

  it('names every slice with its team, islands, slots, service and calls, and draws each part', () => {
    const map = renderMap() as string;
    for (const slice of SLICES) {
      expect(map).toContain(`| [${slice.name}](${slice.name}/README.md) | ${slice.team} |`);
      for (const island of slice.remote?.islands ?? []) expect(map).toContain(`\`${island}\``);
      for (const fill of slice.remote?.slots ?? []) expect(map).toContain(`\`${fill.slot}\` ← ${fill.island}`);
      if (slice.service) expect(map).toContain(`service ${slice.service.name} :${slice.service.port}`);
    }
    expect(map).toContain('```mermaid\nflowchart LR');
  });

  it('fails on a README whose map is stale or missing', () => {
    const stale = README.replace(MAP_END, `| stale row |\n${MAP_END}`);
    expect(withMap(stale)).not.toBe(stale);
    expect(() => withMap('# no markers')).toThrow('README.md has no map markers');
    expect(MAP_START).toMatch(/^<!-- map:start/);
  });

  it('the root README stays short: at most 2,000 words', () => {
    expect(README.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(2000);
  });
});
