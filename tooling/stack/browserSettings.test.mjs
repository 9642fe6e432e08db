import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBrowserSettings } from './browserSettings.mjs';

const root = mkdtempSync(path.join(os.tmpdir(), 'khs-browser-settings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A slice of a test whose browser-settings module has `source`, declaring `fields`. */
function slice(name, source, fields = ['things']) {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, 'settings.mjs'), source);
  return { name, team: 'Test team', description: 'A slice of a test.', env: [], remote: { port: 4390, manifestEnv: 'REMOTE_X_URL', islands: ['X'], browserSettings: { module: 'settings.mjs', pageConfigFields: fields } } };
}

describe('the slices\' browser settings (@khs/stack/browser-settings)', () => {
  it('runs each declared module with the environment and collects its fields, origins and notices', async () => {
    const slices = [
      slice('mf-a', "export function readBrowserSettings(env) { return { pageConfig: { things: { at: env.THINGS_AT } }, connectOrigins: ['https://a.example', 'https://b.example'], notices: ['no things server'] }; }"),
      slice('mf-b', "export async function readBrowserSettings() { return { pageConfig: { others: 1 }, connectOrigins: ['https://a.example'] }; }", ['others']),
      { name: 'mf-c', team: 'Test team', description: 'A slice of a test.', env: [], remote: { port: 4391, manifestEnv: 'REMOTE_C_URL', islands: ['C'] } },
    ];
    expect(await readBrowserSettings({ THINGS_AT: 'here' }, { slices, root })).toEqual({
      pageConfig: { things: { at: 'here' }, others: 1 },
      connectOrigins: ['https://a.example', 'https://b.example'],
      notices: ['mf-a: no things server'],
      problems: [],
    });
  });

  it('refuses a module that is missing, exports nothing to run, leaves out a declared field or fills an undeclared one, naming the slice', async () => {
    const slices = [
      { ...slice('mf-d', ''), remote: { port: 4392, manifestEnv: 'REMOTE_D_URL', islands: ['D'], browserSettings: { module: 'missing.mjs', pageConfigFields: ['things'] } } },
      slice('mf-e', 'export const nothing = 1;'),
      slice('mf-f', "export function readBrowserSettings() { return { pageConfig: { others: 1 }, problems: ['THINGS_AT must be a URL'] }; }"),
    ];
    const { problems, pageConfig } = await readBrowserSettings({}, { slices, root });
    expect(pageConfig).toEqual({});
    expect(problems[0]).toMatch(/^mf-d\/slice\.json: \/remote\/browserSettings: .*missing\.mjs/);
    expect(problems.slice(1)).toEqual([
      'mf-e/slice.json: /remote/browserSettings: settings.mjs exports no readBrowserSettings function',
      'THINGS_AT must be a URL (mf-f)',
      'mf-f/slice.json: /remote/browserSettings: settings.mjs returned no page config field "things"',
      'mf-f/slice.json: /remote/browserSettings/pageConfigFields: settings.mjs returned "others", which the manifest does not declare',
    ]);
  });
});
