import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEAM_SERVICES } from './registry.mjs';
import { loadStackSecrets, SECRET_NAMES } from './secrets.mjs';

let dataDir;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-secrets-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('loadStackSecrets', () => {
  it('generates every missing secret once, in a file only its owner can read, and reuses it', () => {
    const first = loadStackSecrets(dataDir, {});
    expect(first.generated).toEqual([...SECRET_NAMES]);
    expect(SECRET_NAMES).toEqual(expect.arrayContaining(['COOKIE_SECRET', 'TYPESENSE_API_KEY', 'TYPESENSE_SEARCH_API_KEY', ...TEAM_SERVICES.map((service) => service.edgeKeyEnv)]));
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const values = Object.values(first.values);
    expect(new Set(values).size).toBe(values.length);
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(readFileSync(first.file, 'utf8'))).toEqual(first.values);

    const second = loadStackSecrets(dataDir, {});
    expect(second.generated).toEqual([]);
    expect(second.reused).toEqual([...SECRET_NAMES]);
    expect(second.values).toEqual(first.values);
  });

  it('takes a secret from the environment over the file, and does not write it there', () => {
    const stored = loadStackSecrets(dataDir, {}).values;
    const fromEnv = loadStackSecrets(dataDir, { COOKIE_SECRET: 'e'.repeat(40), SURVEY_EDGE_KEY: 'f'.repeat(40) });
    expect(fromEnv.values.COOKIE_SECRET).toBe('e'.repeat(40));
    expect(fromEnv.values.SURVEY_EDGE_KEY).toBe('f'.repeat(40));
    expect(fromEnv.values.WATCHLIST_EDGE_KEY).toBe(stored.WATCHLIST_EDGE_KEY);
    expect(fromEnv.fromEnv).toEqual(['COOKIE_SECRET', 'SURVEY_EDGE_KEY']);
    expect(JSON.parse(readFileSync(fromEnv.file, 'utf8')).COOKIE_SECRET).toBe(stored.COOKIE_SECRET);
  });

  it('makes a file others could read private again, and adds only what is missing', () => {
    const file = path.join(dataDir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ COOKIE_SECRET: 'c'.repeat(43) }), { mode: 0o644 });
    const loaded = loadStackSecrets(dataDir, {});
    expect(loaded.values.COOKIE_SECRET).toBe('c'.repeat(43));
    expect(loaded.reused).toEqual(['COOKIE_SECRET']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a file it cannot read as JSON instead of replacing what it held', () => {
    writeFileSync(path.join(dataDir, 'secrets.json'), '{ broken', { mode: 0o600 });
    expect(() => loadStackSecrets(dataDir, {})).toThrow(/secrets\.json cannot be read/);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toBe('{ broken');
  });
});

describe('loadStackSecrets for some names', () => {
  it('generates only the names asked for (a real Typesense keeps the keys its operator set)', () => {
    const loaded = loadStackSecrets(dataDir, {}, ['COOKIE_SECRET', 'SURVEY_EDGE_KEY']);
    expect(Object.keys(loaded.values)).toEqual(['COOKIE_SECRET', 'SURVEY_EDGE_KEY']);
    expect(Object.keys(JSON.parse(readFileSync(loaded.file, 'utf8')))).toEqual(['COOKIE_SECRET', 'SURVEY_EDGE_KEY']);
  });
});

describe("a team service's environment", () => {
  it("gives the search slice's service (writesSearchIndex) the search server's address and admin key, and no other service", async () => {
    const { teamServiceEnvironment } = await import('./startStack.mjs');
    const secrets = loadStackSecrets(dataDir, {}).values;
    const searchTarget = { TYPESENSE_HOST: '127.0.0.1', TYPESENSE_PORT: '8199', TYPESENSE_PROTOCOL: 'http' };
    const indexing = TEAM_SERVICES.filter((service) => service.writesSearchIndex);
    expect(indexing.map((service) => service.slice)).toEqual(['mf-search']);
    for (const service of TEAM_SERVICES) {
      const env = teamServiceEnvironment(service, { env: { PATH: '/usr/bin' }, secrets, port: 4320, dataDir, searchTarget });
      if (service.writesSearchIndex) {
        expect(env).toMatchObject({ ...searchTarget, TYPESENSE_API_KEY: secrets.TYPESENSE_API_KEY });
        expect(env).not.toHaveProperty('TYPESENSE_SEARCH_API_KEY');
      } else {
        expect(Object.values(env)).not.toContain(secrets.TYPESENSE_API_KEY);
        expect(env).not.toHaveProperty('TYPESENSE_HOST');
      }
    }
  });

  it("gives the shell every secret but the search server's admin key and the editor token", async () => {
    const { shellSecrets } = await import('./startStack.mjs');
    const secrets = loadStackSecrets(dataDir, {}).values;
    const shell = shellSecrets(secrets);
    expect(Object.keys(shell).sort()).toEqual(SECRET_NAMES.filter((name) => name !== 'TYPESENSE_API_KEY' && name !== 'EDITOR_TOKEN').sort());
    expect(Object.values(shell)).not.toContain(secrets.TYPESENSE_API_KEY);
    expect(Object.values(shell)).not.toContain(secrets.EDITOR_TOKEN);
  });

  it("gives the editor token to the service of the editors' pages (readsEditorToken) alone", async () => {
    const { teamServiceEnvironment } = await import('./startStack.mjs');
    const secrets = loadStackSecrets(dataDir, {}).values;
    expect(secrets.EDITOR_TOKEN).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(TEAM_SERVICES.filter((service) => service.readsEditorToken).map((service) => service.name)).toEqual(['search-team']);
    for (const service of TEAM_SERVICES) {
      const env = teamServiceEnvironment(service, { env: { PATH: '/usr/bin', EDITOR_TOKEN: 'from-the-callers-env-0123456789' }, secrets, port: 4320, dataDir });
      if (service.readsEditorToken) expect(env.EDITOR_TOKEN).toBe(secrets.EDITOR_TOKEN);
      else expect(env).not.toHaveProperty('EDITOR_TOKEN');
    }
  });

  it('holds its own edge key and no other secret, whatever the caller had', async () => {
    const { teamServiceEnvironment } = await import('./startStack.mjs');
    const secrets = loadStackSecrets(dataDir, {}).values;
    const survey = TEAM_SERVICES.find((service) => service.name === 'survey');
    const env = teamServiceEnvironment(survey, {
      env: { PATH: '/usr/bin', COOKIE_SECRET: 'from-the-shell-env-0123456789abcdef', WATCHLIST_EDGE_KEY: 'w'.repeat(43) },
      serviceEnv: { SITE_NAME: 'KHS', TYPESENSE_API_KEY: 'k'.repeat(43) },
      secrets,
      port: 4320,
      dataDir,
    });
    expect(env.SURVEY_EDGE_KEY).toBe(secrets.SURVEY_EDGE_KEY);
    expect(env).toMatchObject({ PATH: '/usr/bin', SITE_NAME: 'KHS', HOST: '127.0.0.1', PORT: '4320', DATA_DIR: dataDir });
    for (const name of SECRET_NAMES.filter((name) => name !== 'SURVEY_EDGE_KEY')) expect(env).not.toHaveProperty(name);
    const values = Object.values(env);
    for (const [name, value] of Object.entries(secrets)) if (name !== 'SURVEY_EDGE_KEY') expect(values).not.toContain(value);
  });

  it("passes an external search cluster's nodes on to the index writer alone, with the admin key", async () => {
    const { teamServiceEnvironment } = await import('./startStack.mjs');
    const secrets = { ...loadStackSecrets(dataDir, {}).values, TYPESENSE_API_KEY: 'admin-'.repeat(8) };
    const searchTarget = { TYPESENSE_NODES: 'http://10.0.0.1:8108,http://10.0.0.2:8108', TYPESENSE_NEAREST_NODE: 'http://10.0.0.1:8108' };
    for (const service of TEAM_SERVICES) {
      const env = teamServiceEnvironment(service, { env: {}, secrets, port: 1, dataDir, searchTarget });
      if (service.writesSearchIndex) expect(env).toMatchObject({ ...searchTarget, TYPESENSE_API_KEY: secrets.TYPESENSE_API_KEY });
      else for (const name of [...Object.keys(searchTarget), 'TYPESENSE_API_KEY']) expect(env).not.toHaveProperty(name);
    }
  });
});
