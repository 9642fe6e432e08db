// One site per data folder: two stacks over the same SQLite files and search folder would corrupt
// each other's view of them (issue 21: a second `npm start` ran every service twice over the same
// files). The lock is a file naming the owner's pid, created exclusively; a lock whose process is
// gone (a stack killed with SIGKILL) is taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

/** The lock file in the data folder. */
export const LOCK_FILE_NAME = 'stack.lock';

/** Another live process holds the data folder. */
export class DataDirInUseError extends Error {
  constructor(dataDir, pid) {
    super(
      `The data folder ${dataDir} is in use by process ${pid} (another npm start?): stop it first, or start with another DATA_DIR. ` +
        `(If process ${pid} is no site at all, remove ${path.join(dataDir, LOCK_FILE_NAME)}.)`,
    );
    this.name = 'DataDirInUseError';
    this.pid = pid;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Takes `<dataDir>/stack.lock` for this process; throws `DataDirInUseError` when a live process
 * holds it. Returns `release()` (removes the lock if it is still ours).
 * @param {string} dataDir
 * @returns {{ file: string, release(): void }}
 */
export function lockDataDir(dataDir) {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        file,
        release() {
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner;
    try {
      owner = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // Released meanwhile: try again.
    }
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) throw new DataDirInUseError(dataDir, owner);
    // Its owner is gone (or wrote nothing yet and died): take it over.
    rmSync(file, { force: true });
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}
