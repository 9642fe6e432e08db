import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './dataDirLock.mjs';

let dataDir;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-lock-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('lockDataDir', () => {
  it('takes the folder for this process and releases it', () => {
    const lock = lockDataDir(dataDir);
    expect(readFileSync(lock.file, 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('refuses a folder a live process holds, naming it', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(dataDir, 'stack.lock'), String(holder.pid));
      expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dataDir)).toThrow(`in use by process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that is gone (a stack killed with SIGKILL)', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(path.join(dataDir, 'stack.lock'), String(gone.pid));
    const lock = lockDataDir(dataDir);
    expect(readFileSync(lock.file, 'utf8')).toBe(String(process.pid));
    lock.release();
  });
});
