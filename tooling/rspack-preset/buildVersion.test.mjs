import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeBuildVersion } from './buildVersion.mjs';

let dist;
beforeEach(() => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'khs-build-version-'));
  const files = {
    'mf-manifest.json': JSON.stringify({ metaData: { name: 'mf_test' }, exposes: [] }),
    'mf-stats.json': JSON.stringify({ exposes: [{ name: 'A', requires: [] }] }),
    'remoteEntry.0badc0de.js': 'var mf_test = {};',
    'server/mf-manifest.json': JSON.stringify({ exposes: [] }),
    'server/mf-stats.json': JSON.stringify({ exposes: [{ name: 'A', requires: ['react-dom/server'] }] }),
    'server/remoteEntry.js': 'module.exports = {};',
    'standalone/index.html': '<!doctype html><title>mf_test</title>',
  };
  for (const [file, body] of Object.entries(files)) write(file, body);
});
afterEach(() => rmSync(dist, { recursive: true, force: true }));

function write(file, body) {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  writeFileSync(path.join(dist, file), body);
}

describe('computeBuildVersion', () => {
  it('is the package version and 12 hex digits, the same for the same files', () => {
    const version = computeBuildVersion(dist, '1.2.3');
    expect(version).toMatch(/^1\.2\.3\+[0-9a-f]{12}$/);
    expect(computeBuildVersion(dist, '1.2.3')).toBe(version);
  });

  // Deploy publishes every file of the build: one that differs must make another version, or a
  // redeploy of that version is refused.
  it.each(['mf-stats.json', 'server/mf-stats.json', 'server/mf-manifest.json', 'standalone/index.html', 'server/remoteEntry.js', 'remoteEntry.0badc0de.js'])(
    'changes when %s changes',
    (file) => {
      const before = computeBuildVersion(dist, '1.0.0');
      write(file, '{"changed":true}');
      expect(computeBuildVersion(dist, '1.0.0')).not.toBe(before);
    },
  );

  it('changes when the manifest changes, but not when only its own buildVersion does', () => {
    const before = computeBuildVersion(dist, '1.0.0');
    write('mf-manifest.json', JSON.stringify({ metaData: { name: 'mf_test', buildVersion: before }, exposes: [] }));
    expect(computeBuildVersion(dist, '1.0.0')).toBe(before);
    write('mf-manifest.json', JSON.stringify({ metaData: { name: 'mf_test', buildVersion: before }, exposes: [{ name: 'B' }] }));
    expect(computeBuildVersion(dist, '1.0.0')).not.toBe(before);
  });

  it('ignores the compressed copies (they are made from the files it hashes)', () => {
    const before = computeBuildVersion(dist, '1.0.0');
    write('mf-stats.json.br', 'x');
    write('remoteEntry.0badc0de.js.gz', 'y');
    expect(computeBuildVersion(dist, '1.0.0')).toBe(before);
  });
});
