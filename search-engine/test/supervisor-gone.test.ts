import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');
const superviseCli = path.join(import.meta.dirname, '..', 'src', 'cli', 'supervise.ts');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Embedded only: what becomes of the server process when its supervisor is killed outright.
describe.runIf(!process.env.TYPESENSE_URL)('supervisor killed outright', () => {
  it('its search server stops too instead of staying behind as an orphan', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'search-supervisor-gone-'));
    const supervisor = spawn(process.execPath, ['--import', tsxLoader, superviseCli], {
      env: { ...process.env, SEARCH_PORT: '0', SEARCH_DATA_DIR: dataDir, SEARCH_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const serverPid = await new Promise<number>((resolve, reject) => {
        supervisor.once('exit', () => reject(new Error('the supervisor exited before its server listened')));
        readline.createInterface({ input: supervisor.stdout! }).on('line', (line) => {
          if (!line.startsWith('{')) return;
          const status = JSON.parse(line) as { event?: string; pid?: number };
          if (status.event === 'listening' && status.pid) resolve(status.pid);
        });
      });
      expect(alive(serverPid)).toBe(true);
      supervisor.kill('SIGKILL');
      await expect.poll(() => alive(serverPid), { timeout: 15_000, interval: 100 }).toBe(false);
    } finally {
      if (supervisor.exitCode === null && supervisor.signalCode === null) supervisor.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
