import { describe, expect, it } from 'vitest';
import type { SliceManifest } from '../tooling/stack/registry.d.ts';
import { checkShell, findSliceNames, identifierWords, sliceNames } from './shell-slice-names.mjs';

const slice: SliceManifest = {
  name: 'mf-things',
  team: 'Things team',
  description: 'A slice of a test.',
  env: ['THINGS_API_KEY', 'CONTENT_DIR'],
  remote: { port: 4390, manifestEnv: 'REMOTE_MF_THINGS_URL', islands: ['ThingList', 'Dialog'] },
  service: { name: 'things', entry: 'server/src/main.ts', port: 4391, urlEnv: 'THINGS_SERVICE_URL', edgeKeyEnv: 'THINGS_EDGE_KEY', reads: [], edgePolicy: { routes: [] } },
};
const names = sliceNames([slice], ['CONTENT_DIR']);
const find = (source: string, file = 'x.tsx') => findSliceNames(file, source, names).map(({ kind, text }) => `${kind} ${text}`);

describe('the shell names no slice (scripts/shell-slice-names.mjs)', () => {
  it("takes the names from the manifests: the slice's, its islands', its service's, its variables' (not the site-wide ones)", () => {
    expect(names.map((name) => `${name.kind} ${name.name}`)).toEqual([
      'slice mf-things',
      'island ThingList',
      'island Dialog',
      'service things',
      'variable THINGS_API_KEY',
      'variable REMOTE_MF_THINGS_URL',
      'variable THINGS_SERVICE_URL',
      'variable THINGS_EDGE_KEY',
    ]);
    expect(identifierWords('SEARCH_LIST_ISLAND')).toEqual(['search', 'list', 'island']);
    expect(identifierWords('HTMLDialogElement')).toEqual(['html', 'dialog', 'element']);
  });

  it('finds an import, an island name, an identifier and a variable', () => {
    expect(find("import { x } from 'mf-things/server';")).toEqual(['string mf-things/server']);
    expect(find("const island = 'mf-things/ThingList';")).toEqual(['string mf-things/ThingList']);
    expect(find('const THING_LIST_ISLAND = 1; function getThings() {}')).toEqual(['identifier THING_LIST_ISLAND', 'identifier getThings']);
    expect(find('const key = process.env.THINGS_API_KEY ?? env["THINGS_SERVICE_URL"];')).toEqual(['identifier THINGS_API_KEY', 'string THINGS_SERVICE_URL']);
    expect(find('const page = <a href="/things">{`${origin}/things`}</a>;')).toEqual(['string /things', 'string /things']);
  });

  it('leaves comments, site-wide variables, prose and a word that only looks like an island alone', () => {
    expect(find("// mf-things/ThingList renders here, THINGS_API_KEY\n/* things */ const a = 1;")).toEqual([]);
    expect(find("const dir = process.env.CONTENT_DIR;")).toEqual([]);
    expect(find("const text = 'Save the things you like'; const dialog = document.createElement('dialog') as HTMLDialogElement;")).toEqual([]);
    expect(find("const part = 'things-share'; const other = 'thingsy';")).toEqual([]);
    expect(find("const migration = 'things requests (moved to the things service)';")).toEqual([]);
    expect(find("const line = 'set THINGS_API_KEY for mf-things';")).toEqual(['string set THINGS_API_KEY for mf-things']);
  });

  it('reports the places in the shell that name a slice (none once every template is on slots)', () => {
    const findings = checkShell();
    expect(findings.map((finding) => `${finding.file}:${finding.line}: ${finding.kind} "${finding.text}" names ${finding.names}`)).toEqual([]);
    // Parses every source of the shell and of contracts: seconds on a busy machine.
  }, 120_000);
});
