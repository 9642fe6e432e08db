// The registry (tooling/stack/registry.mjs) is discovered from the slices' manifests (`<slice>/slice.json`).
// Where a part must repeat a manifest's fact in its own files (its `serve` script, the name unions the
// type checker sees, the root workspaces, the deploy files), this test holds them to the manifests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTES, searchPageOrigins, SERVICES, SHELL_DEFAULT_PORT, SLICES, TEAM_SERVICES, withDeprecatedEnv } from '@khs/stack/registry';
import { readSliceManifests, SliceManifestError } from '@khs/stack/slices';
import { describe, expect, it } from 'vitest';
import { workspaceFolders } from './workspaces.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
/** The workspace folders as npm itself resolves the root's globs (`npm query .workspace`). */
const npmWorkspaceFolders = () =>
  (JSON.parse(execFileSync('npm', ['query', '.workspace'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })) as { location: string }[]).map((workspace) => workspace.location).sort();
/** Folders under `dir` holding a package.json. */
const packageFolders = (dir: string) => readdirSync(path.join(ROOT, dir), { withFileTypes: true }).filter((entry) => entry.isDirectory() && existsSync(path.join(ROOT, dir, entry.name, 'package.json'))).map((entry) => path.posix.join(dir, entry.name));
/** The string-literal members of `export type <name> = 'a' | 'b';` in registry.d.ts. */
const unionMembers = (name: string) => {
  const declaration = readFileSync(path.join(ROOT, 'tooling/stack/registry.d.ts'), 'utf8').match(new RegExp(`export type ${name} = ([^;]+);`))![1]!;
  return [...declaration.matchAll(/'([^']+)'/g)].map((match) => match[1]!).sort();
};

describe('the stack registry, discovered from the slice manifests', () => {
  it('finds every slice folder: the remotes are the slices with a remote, the team services those with a service', () => {
    expect(SLICES.map((slice) => slice.name)).toEqual(['contact', 'mf-search', 'mf-survey', 'mf-watchlist', 'mf-widgets']);
    expect(REMOTES.map((remote) => remote.name).sort()).toEqual(SLICES.filter((slice) => slice.remote).map((slice) => slice.name));
    expect(TEAM_SERVICES.map((service) => service.slice).sort()).toEqual(SLICES.filter((slice) => slice.service).map((slice) => slice.name));
    // Every mf-* folder is a slice (a remote without a manifest would be silently left out).
    expect(readdirSync(ROOT).filter((name) => name.startsWith('mf-')).sort()).toEqual(REMOTES.map((remote) => remote.name).sort());
  });

  it('the root workspaces are globs: every slice and library is one, and every workspace with a manifest is a slice', () => {
    const patterns = readJson('package.json').workspaces as string[];
    expect(patterns.every((pattern) => pattern.includes('*')), 'a slice joins by its folder: no workspace listed by name').toBe(true);
    const folders = workspaceFolders();
    for (const slice of SLICES) expect(folders, `${slice.name} is a workspace`).toContain(slice.name);
    expect(folders.filter((folder) => existsSync(path.join(ROOT, folder, 'slice.json'))).sort()).toEqual(SLICES.map((slice) => slice.name));
    for (const library of [...packageFolders('libs'), ...packageFolders('tooling')]) expect(folders, `${library} is a workspace`).toContain(library);
    // Every package folder at the root is one, the root's own folders with no package.json aside.
    expect(folders.filter((folder) => !folder.includes('/')).sort()).toEqual(packageFolders('.').map((folder) => folder.replace(/^\.\//, '')).filter((folder) => !folder.startsWith('.')).sort());
  });

  it('npm resolves the globs to the same workspaces, and the lock file records the globs and every workspace', { timeout: 60_000 }, () => {
    expect(npmWorkspaceFolders()).toEqual([...workspaceFolders()].sort());
    const lock = readJson('package-lock.json') as { packages: Record<string, { workspaces?: string[]; version?: string; link?: boolean; resolved?: string }> };
    expect(lock.packages['']!.workspaces).toEqual(readJson('package.json').workspaces);
    for (const folder of workspaceFolders()) {
      const { name, version } = readJson(`${folder}/package.json`) as { name: string; version: string };
      expect(lock.packages[folder]?.version, `${folder} in package-lock.json`).toBe(version);
      expect(lock.packages[`node_modules/${name}`], `node_modules/${name} links ${folder}`).toMatchObject({ resolved: folder, link: true });
    }
  });

  it("the type checker's name unions (registry.d.ts) are the manifests' names", () => {
    expect(unionMembers('RemoteName')).toEqual(REMOTES.map((remote) => remote.name).sort());
    expect(unionMembers('TeamServiceName')).toEqual(TEAM_SERVICES.map((service) => service.name).sort());
  });

  it('gives every part its own default port and manifest variable', () => {
    const ports = [SHELL_DEFAULT_PORT, ...REMOTES.map((remote) => remote.defaultPort), ...SERVICES.map((service) => service.defaultPort), ...TEAM_SERVICES.map((service) => service.defaultPort)];
    expect(new Set(ports).size).toBe(ports.length);
    for (const remote of REMOTES) expect(remote.manifestEnv).toBe(`REMOTE_${remote.name.replace('-', '_').toUpperCase()}_URL`);
  });

  it.each(REMOTES.map((remote) => [remote.name, remote] as const))("%s: its dev server takes the manifest's port, its dist is served there, it exposes the manifest's islands", (name, remote) => {
    const rspackConfig = readFileSync(path.join(ROOT, name, 'rspack.config.mjs'), 'utf8');
    expect(rspackConfig).toMatch(/devPort:\s*slice\.remote\.port\b/);
    const exposes = rspackConfig.match(/\n  exposes: \{([^}]*)\}/)![1]!;
    expect([...exposes.matchAll(/'\.\/([A-Za-z0-9]+)'/g)].map((match) => match[1]).sort()).toEqual([...remote.islands].sort());
    const pkg = readJson(`${name}/package.json`) as { scripts: Record<string, string> };
    expect(pkg.scripts.serve).toBe(`khs-serve-dist dist ${remote.defaultPort}`);
  });

  it.each(TEAM_SERVICES.map((service) => [service.name, service] as const))('the %s service starts alone from its slice with `npm start`, on the entry the stack starter runs', (_name, service) => {
    expect(existsSync(path.join(ROOT, service.slice, service.entry))).toBe(true);
    const pkg = readJson(`${service.slice}/package.json`) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`tsx ${service.entry}`);
    for (const script of ['build', 'test']) expect(pkg.scripts[script]).toBeTruthy();
    expect(service.urlEnv).toBe(`${service.name.replace('-', '_').toUpperCase()}_SERVICE_URL`);
    expect(service.edgeKeyEnv).toBe(`${service.name.replace('-', '_').toUpperCase()}_EDGE_KEY`);
  });

  it("reads the search team's former variable names for one version, with a deprecation line, the new name winning", () => {
    const lines: string[] = [];
    const env = withDeprecatedEnv({ INSIGHTS_SERVICE_URL: 'http://10.0.0.1:4322', INSIGHTS_EDGE_KEY: 'k'.repeat(32), SEARCH_TEAM_EDGE_KEY: 'n'.repeat(32) }, (line) => lines.push(line));
    expect(env.SEARCH_TEAM_SERVICE_URL).toBe('http://10.0.0.1:4322');
    expect(env.SEARCH_TEAM_EDGE_KEY).toBe('n'.repeat(32));
    expect(lines).toEqual([
      expect.stringMatching(/^\[deprecated\] INSIGHTS_SERVICE_URL is read for one more version: set SEARCH_TEAM_SERVICE_URL instead/),
      expect.stringMatching(/^\[deprecated\] INSIGHTS_EDGE_KEY is read for one more version: set SEARCH_TEAM_EDGE_KEY instead/),
    ]);
    expect(withDeprecatedEnv({ PORT: '1' }, (line) => lines.push(line))).toEqual({ PORT: '1' });
    expect(lines).toHaveLength(2);
  });

  it('names the origins whose pages search from the browser: the shell on loopback, its public origin, the remotes', () => {
    expect(
      searchPageOrigins({
        shellPort: '4300',
        publicBaseUrl: 'https://competence.example.org/base/',
        remoteOrigins: ['http://127.0.0.1:4310', 'http://127.0.0.1:4311/mf-manifest.json', 'http://127.0.0.1:4310/', 'not a url'],
      }),
    ).toEqual(['http://127.0.0.1:4300', 'http://localhost:4300', 'https://competence.example.org', 'http://127.0.0.1:4310', 'http://127.0.0.1:4311']);
    // A port picked only at listen time (0) is unknown up front: no shell origin then.
    expect(searchPageOrigins({ shellPort: 0, remoteOrigins: ['http://127.0.0.1:4312'] })).toEqual(['http://127.0.0.1:4312']);
  });
});

describe('a malformed slice manifest is refused, naming the file and the field', () => {
  const withSlices = (slices: Record<string, unknown>, check: (root: string) => void) => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'khs-slices-'));
    try {
      for (const [folder, manifest] of Object.entries(slices)) {
        mkdirSync(path.join(root, folder));
        writeFileSync(path.join(root, folder, 'slice.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
      }
      check(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  const problemsOf = (slices: Record<string, unknown>) => {
    let problems: string[] = [];
    withSlices(slices, (root) => {
      try {
        readSliceManifests(root);
      } catch (error) {
        expect(error).toBeInstanceOf(SliceManifestError);
        problems = (error as SliceManifestError).problems;
      }
    });
    return problems;
  };
  const remoteSlice = (name: string, port: number) => ({ name, team: 'Team', description: 'A slice for this test.', env: [], remote: { port, manifestEnv: `REMOTE_${name.toUpperCase().replace('-', '_')}_URL`, islands: ['Thing'] } });

  it('reads sound manifests', () => {
    withSlices({ 'mf-a': remoteSlice('mf-a', 5001) }, (root) => expect(readSliceManifests(root).map((slice) => slice.name)).toEqual(['mf-a']));
  });

  it('names the field of each schema problem', () => {
    const problems = problemsOf({ 'mf-a': { ...remoteSlice('mf-a', 5001), remote: { port: 'x', manifestEnv: 'NOPE', islands: [] }, extra: 1 } });
    expect(problems).toEqual(
      expect.arrayContaining([
        'mf-a/slice.json: (the manifest) must NOT have additional properties (extra)',
        'mf-a/slice.json: /remote/port must be integer',
        'mf-a/slice.json: /remote/manifestEnv must match pattern "^REMOTE_[A-Z0-9_]+_URL$"',
        'mf-a/slice.json: /remote/islands must NOT have fewer than 1 items',
      ]),
    );
  });

  it('refuses a name that is not its folder, broken JSON, a port or variable two slices claim, a reserved name', () => {
    expect(problemsOf({ 'mf-a': remoteSlice('mf-b', 5001) })).toEqual(['mf-a/slice.json: /name must be the slice\'s folder name "mf-a", got "mf-b"']);
    expect(problemsOf({ 'mf-a': '{ not json' })[0]).toMatch(/^mf-a\/slice\.json: cannot be read as JSON/);
    expect(problemsOf({ 'mf-a': remoteSlice('mf-a', 5001), 'mf-b': remoteSlice('mf-b', 5001) })).toEqual(['mf-b/slice.json: /remote/port 5001 is already mf-a/slice.json /remote/port\'s']);
    expect(problemsOf({ 'mf-a': remoteSlice('mf-a', 4300) })).toEqual(["mf-a/slice.json: /remote/port 4300 is already the shell's"]);
    expect(problemsOf({ shell: remoteSlice('shell', 5001) })).toEqual(['shell/slice.json: /name "shell" is taken by the stack itself']);
  });
});

describe('the real manifests', () => {
  it('are each valid on their own (the registry above read them all)', () => {
    expect(() => readSliceManifests(ROOT)).not.toThrow();
  });
});
