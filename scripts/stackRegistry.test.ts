// The registry (tooling/stack/registry.mjs) is the one list of remotes and services. Where a remote
// must repeat its port in its own files (its dev server, its `serve` script, so it builds and runs
// alone), this test holds them to the registry.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REMOTES, searchPageOrigins, SERVICES, SHELL_DEFAULT_PORT, TEAM_SERVICES } from '@khs/stack/registry';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const workspaces = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

describe('the stack registry', () => {
  it('lists every remote workspace, and only those', () => {
    expect(REMOTES.map((remote) => remote.name).sort()).toEqual(workspaces.filter((name) => name.startsWith('mf-')).sort());
    expect(readdirSync(ROOT).filter((name) => name.startsWith('mf-')).sort()).toEqual(REMOTES.map((remote) => remote.name).sort());
  });

  it('gives every part its own default port and manifest variable', () => {
    const ports = [SHELL_DEFAULT_PORT, ...REMOTES.map((remote) => remote.defaultPort), ...SERVICES.map((service) => service.defaultPort), ...TEAM_SERVICES.map((service) => service.defaultPort)];
    expect(new Set(ports).size).toBe(ports.length);
    for (const remote of REMOTES) expect(remote.manifestEnv).toBe(`REMOTE_${remote.name.replace('-', '_').toUpperCase()}_URL`);
  });

  it.each(REMOTES.map((remote) => [remote.name, remote.defaultPort] as const))('%s serves its dev server and its dist on its registry port %i', (name, port) => {
    const rspackConfig = readFileSync(path.join(ROOT, name, 'rspack.config.mjs'), 'utf8');
    expect(rspackConfig).toMatch(new RegExp(`devPort:\\s*${port}\\b`));
    const pkg = JSON.parse(readFileSync(path.join(ROOT, name, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.serve).toBe(`khs-serve-dist dist ${port}`);
  });

  it.each(TEAM_SERVICES.map((service) => [service.name, service] as const))('the %s service starts alone from its slice with `npm start`, on the entry the stack starter runs', (_name, service) => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, service.slice, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`tsx ${service.entry}`);
    for (const script of ['build', 'test']) expect(pkg.scripts[script]).toBeTruthy();
    expect(service.urlEnv).toBe(`${service.name.toUpperCase()}_SERVICE_URL`);
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
