// scripts/with-node24.sh runs a command under the pinned Node 24: every child that finds `node`,
// `npm` or `npx` on PATH gets it, and npm builds native modules against its headers whatever
// nodedir a ~/.npmrc names (ours says /usr, Node 20's headers).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const script = readFileSync(path.join(ROOT, 'scripts/with-node24.sh'), 'utf8');
const pinned = /^NODE24_VERSION="(24\.\d+\.\d+)"$/m.exec(script)?.[1];
const nodeHome = path.join(ROOT, '.tools', `node-${pinned}`);
// Installing needs the registry; the test runs where the script already installed it (.ci/run does).
const installed = existsSync(path.join(nodeHome, 'bin/node'));

describe('scripts/with-node24.sh', () => {
  it('pins an exact Node 24 release, the major .nvmrc names', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('24');
  });

  const home = mkdtempSync(path.join(tmpdir(), 'with-node24-home-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it.skipIf(!installed)('runs node, npm and npx children on the pinned Node, with npm_config_nodedir beating ~/.npmrc', () => {
    writeFileSync(path.join(home, '.npmrc'), 'nodedir=/usr\nupdate-notifier=false\n');
    const printed = execFileSync(
      'bash',
      [
        'scripts/with-node24.sh',
        'bash',
        '-c',
        'node -p process.version; npm exec --offline --yes -c "node -p process.version"; npx --offline --yes -c "node -p process.version"; npm config get nodedir',
      ],
      // A PATH with Node 20 first, as on our machines: the script must still put its own first.
      { cwd: ROOT, env: { ...process.env, HOME: home, PATH: `/usr/bin:${process.env.PATH}` }, encoding: 'utf8' },
    )
      .trim()
      .split('\n');
    expect(printed).toEqual([`v${pinned}`, `v${pinned}`, `v${pinned}`, nodeHome]);
    expect(existsSync(path.join(nodeHome, 'include/node/node.h'))).toBe(true);
    // Three npm starts: seconds each on a busy machine.
  }, 60_000);
});
