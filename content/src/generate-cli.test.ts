import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateArticles } from './index.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('./cli/generate.ts', import.meta.url));
const tsx = (args: string[]) => run(process.execPath, ['--import', 'tsx', cli, ...args], { maxBuffer: 64 * 1024 * 1024 });

describe('generate CLI', () => {
  it('writes JSON Lines to stdout matching generateArticles', async () => {
    const { stdout } = await tsx(['--count', '25', '--seed', '3']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(25);
    expect(lines.map((l) => JSON.parse(l))).toEqual(generateArticles(25, { seed: 3 }));
  });

  it('writes to --out and reports on stderr', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'khs-content-')), 'articles.jsonl');
    const { stdout, stderr } = await tsx(['--count', '10', '--out', out]);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/wrote 10 articles \(seed 1\)/);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(generateArticles(10));
  });

  it('fails with a usage message when --count is missing or not an integer', async () => {
    await expect(tsx([])).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/--count is required/) });
    await expect(tsx(['--count', 'ten'])).rejects.toMatchObject({ stderr: expect.stringMatching(/--count must be an integer/) });
  });
});
