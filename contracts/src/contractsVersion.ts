// Which contracts a remote was built against, and whether the shell can run it. Each remote's
// manifest records the version (`metaData.contractsVersion`, written by tooling/rspack-preset at
// build time); the shell's browser runtime and its server loader both apply the rule below.

/**
 * The version of this contracts package (semver). Equal to `version` in package.json (a unit test
 * keeps them together). Minor: something was added (an export, an optional event field); major:
 * something a built remote relies on changed or went away.
 */
export const CONTRACTS_VERSION = '1.8.0';

/** Key of the contracts version in a remote manifest's `metaData`. */
export const CONTRACTS_VERSION_MANIFEST_KEY = 'contractsVersion';

/** Verdict of {@link contractsCompatibility}. */
export type ContractsCompatibility = { compatible: true } | { compatible: false; reason: string };

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+][0-9A-Za-z.+-]*)?$/;

/** Major version of a semver string; undefined when it is not one. */
export function contractsMajor(version: unknown): number | undefined {
  if (typeof version !== 'string') return undefined;
  const match = SEMVER.exec(version.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * Whether a remote built against contracts `remoteVersion` may run with a host on `hostVersion`:
 * the same major with any minor or patch is compatible (additions only, both ways: event payloads
 * are read tolerantly, see `readSiteEvent`); another major, or no readable version, is refused.
 */
export function contractsCompatibility(remoteVersion: unknown, hostVersion: string = CONTRACTS_VERSION): ContractsCompatibility {
  const hostMajor = contractsMajor(hostVersion);
  if (hostMajor === undefined) throw new TypeError(`the host's contracts version "${hostVersion}" is not semver`);
  if (remoteVersion === undefined || remoteVersion === null || remoteVersion === '') {
    return { compatible: false, reason: 'the remote does not say which contracts version it was built against' };
  }
  const remoteMajor = contractsMajor(remoteVersion);
  if (remoteMajor === undefined) {
    return { compatible: false, reason: `the remote's contracts version ${JSON.stringify(remoteVersion)} is not semver` };
  }
  if (remoteMajor !== hostMajor) {
    return { compatible: false, reason: `the remote was built against contracts ${String(remoteVersion)}, the shell runs ${hostVersion} (major ${remoteMajor} ≠ ${hostMajor})` };
  }
  return { compatible: true };
}
