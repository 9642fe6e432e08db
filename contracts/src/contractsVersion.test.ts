import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACTS_VERSION, contractsCompatibility, contractsMajor } from './contractsVersion.js';

describe('CONTRACTS_VERSION', () => {
  it('is the package version (the one the remotes record in their manifests)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(CONTRACTS_VERSION).toBe(pkg.version);
  });
});

describe('contractsCompatibility', () => {
  it.each([
    ['1.2.0', '1.2.0'],
    ['1.0.0', '1.2.0'],
    ['1.1.7', '1.2.0'],
    ['1.9.0', '1.2.0'],
    ['1.3.0-rc.1', '1.2.0'],
    ['2.0.0', '2.4.1'],
  ])('accepts a remote on %s with a host on %s (same major)', (remote, host) => {
    expect(contractsCompatibility(remote, host)).toEqual({ compatible: true });
  });

  it.each([
    ['2.0.0', '1.2.0', /major 2 ≠ 1/],
    ['0.9.0', '1.2.0', /major 0 ≠ 1/],
    ['1.2.0', '2.0.0', /major 1 ≠ 2/],
    [undefined, '1.2.0', /does not say/],
    ['', '1.2.0', /does not say/],
    [null, '1.2.0', /does not say/],
    ['latest', '1.2.0', /not semver/],
    ['1.2', '1.2.0', /not semver/],
    [12, '1.2.0', /not semver/],
  ])('refuses a remote on %j with a host on %s', (remote, host, reason) => {
    const verdict = contractsCompatibility(remote, host);
    expect(verdict.compatible).toBe(false);
    expect(verdict.compatible === false && verdict.reason).toMatch(reason);
  });

  it("defaults the host to this package's version", () => {
    expect(contractsCompatibility(CONTRACTS_VERSION)).toEqual({ compatible: true });
    expect(contractsCompatibility(`${Number(contractsMajor(CONTRACTS_VERSION)) + 1}.0.0`).compatible).toBe(false);
  });

  it('throws on a host version that is not semver (a build mistake, not a remote problem)', () => {
    expect(() => contractsCompatibility('1.0.0', 'one')).toThrow(TypeError);
  });
});
