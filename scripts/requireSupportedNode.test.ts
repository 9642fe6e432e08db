// `npm start`, `npm test` and `npm run dev` stop at once on a Node older than package.json's
// engines allow, with one line naming the command to run; `npm ci` does (engine-strict in .npmrc).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeSatisfies, unsupportedNodeLine } from './requireSupportedNode.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const range = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
/** A Node on this machine older than the engines allow (ours ship Node 20), if there is one. */
const olderNode = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'].find((candidate) => {
  if (!existsSync(candidate)) return false;
  const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
  return version !== '' && !nodeSatisfies(version, range);
});

describe('the supported Node', () => {
  it('reads the engines range as npm does for its forms', () => {
    expect(nodeSatisfies('24.15.0', '^22.22.2 || >=24.15.0')).toBe(true);
    expect(nodeSatisfies('26.0.0', '^22.22.2 || >=24.15.0')).toBe(true);
    expect(nodeSatisfies('22.22.2', '^22.22.2 || >=24.15.0')).toBe(true);
    expect(nodeSatisfies('22.22.1', '^22.22.2 || >=24.15.0')).toBe(false);
    expect(nodeSatisfies('23.9.0', '^22.22.2 || >=24.15.0')).toBe(false);
    expect(nodeSatisfies('20.20.2', '^22.22.2 || >=24.15.0')).toBe(false);
    expect(nodeSatisfies('18.19.0', '^22.22.2 || >=24.15.0')).toBe(false);
    expect(() => nodeSatisfies('24.0.0', '~24.1')).toThrow('unsupported engines.node form');
  });

  it('names the command to run under Node 24, in one line', () => {
    expect(unsupportedNodeLine('24.21.0', range, 'npm start')).toBeUndefined();
    expect(unsupportedNodeLine('20.20.2', range, 'npm start')).toBe(
      `Node 20.20.2 is not supported here (package.json engines: ${range}; better-sqlite3 crashes older ones): run bash scripts/with-node24.sh bash -c 'npm ci && npm start'`,
    );
  });

  it('npm ci refuses an unsupported Node (engine-strict)', () => {
    expect(readFileSync(path.join(ROOT, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
  });

  it.skipIf(!olderNode)('npm start, npm test and npm run dev on an older Node: one line, exit 1, nothing built or started', () => {
    for (const [script, command, cwd] of [
      ['scripts/start.mjs', 'npm start', ROOT],
      ['scripts/test-all.mjs', 'npm test', ROOT],
      ['tooling/stack/devCli.mjs', 'npm run dev', path.join(ROOT, 'mf-survey')],
    ] as const) {
      const result = spawnSync(olderNode!, [path.join(ROOT, script)], { cwd, encoding: 'utf8', timeout: 30_000 });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`run bash scripts/with-node24.sh bash -c 'npm ci && ${command}'`);
    }
    // Three node starts: room for a busy machine (no bound on how fast they are).
  }, 120_000);
});
