// The one supervision code of the site: `npm start` and the e2e harness (startStack) run every part —
// the shell, each static origin, each team service, the search server — through `supervise`, and
// the search engine's own `superviseSearchServer` is built on it too.
//
// A supervised child is a node process that prints one JSON line `{"event":"listening", …}` on
// stdout once it serves. The supervisor restarts it with back-off when it exits, replaces it
// (SIGKILL, then the same restart) when its health check stops answering — a hung process, not only
// a dead one — and gives it an IPC channel whose end stops the child, so a supervisor killed outright (SIGKILL) leaves no
// child behind.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import readline from 'node:readline';
import { LISTEN_FD } from './heldPort.mjs';

/**
 * Every timing of supervision, in one place (tooling/stack README, "Supervision"): a child that
 * exits is started again after `initialBackoffMs`, doubled for each crash in a row up to
 * `maxBackoffMs` (a child that ran `healthyAfterMs` starts the count afresh). Once it listens, its
 * health URL is requested every `healthIntervalMs`; an answer (any HTTP status) must come within
 * `healthTimeoutMs`; after `healthFailures` misses in a row the child is killed and restarted — a
 * hung child is replaced within about healthFailures × (interval + timeout) = 12 s. The timeout
 * leaves a busy process room: a shell under 32 connections of load answered within 1.7 s at worst
 * (measured). A (re)start must report `listening` within `startTimeoutMs` of its own time (wall-clock
 * time less the time it waited for a CPU: `startTimeSpentMs`). A stop is SIGTERM, then
 * SIGKILL after `stopTimeoutMs`.
 */
export const SUPERVISION_TIMINGS = Object.freeze({
  initialBackoffMs: 250,
  maxBackoffMs: 10_000,
  healthyAfterMs: 30_000,
  healthIntervalMs: 1_000,
  healthTimeoutMs: 3_000,
  healthFailures: 3,
  startTimeoutMs: 60_000,
  stopTimeoutMs: 5_000,
});

/**
 * Preloaded (`node --import`) into every child: the child stops when its supervisor is gone. The
 * supervisor holds the other end of an IPC channel; the operating system closes it however the
 * supervisor ends (SIGKILL included), and the child then stops as on SIGTERM (its own graceful
 * shutdown), for sure 5 s later. The channel itself must not keep the child alive. Without a channel
 * (a child started by hand) it does nothing. A data: URL, not a file, so a bundled copy of this
 * module (search-engine/dist) needs nothing beside it.
 */
const EXIT_WITH_PARENT_SOURCE = `if (process.channel) {
  process.once('disconnect', () => {
    setTimeout(() => process.exit(1), 5000).unref();
    process.kill(process.pid, 'SIGTERM');
  });
  process.channel.unref();
}`;
export const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(EXIT_WITH_PARENT_SOURCE)}`;

/**
 * How long a child has been starting, not counting the time the machine kept it waiting for a CPU:
 * `elapsedMs` (wall clock since its spawn) less its main thread's run-queue wait (Linux
 * `/proc/<pid>/schedstat`, second field, in ns). On a machine at load 40 a team service's start
 * took more than 60 s of wall-clock time while it waited its turn; that is not a hang. A hang still
 * counts in full: a loop runs (CPU time) and a wait for I/O that never comes sleeps (off the run
 * queue). Where the file cannot be read (not Linux), the wall clock alone.
 * @param {number | undefined} pid
 * @param {number} elapsedMs
 * @param {(pid: number) => string} [readSchedstat] reads `/proc/<pid>/schedstat` (tests pass their own)
 * @returns {{ spentMs: number, waitedMs: number }}
 */
export function startTimeSpentMs(pid, elapsedMs, readSchedstat = (id) => readFileSync(`/proc/${id}/schedstat`, 'utf8')) {
  if (pid !== undefined) {
    try {
      const waitedNs = Number(readSchedstat(pid).trim().split(/\s+/)[1]);
      if (Number.isFinite(waitedNs) && waitedNs >= 0) {
        const waitedMs = Math.min(elapsedMs, waitedNs / 1e6);
        return { spentMs: elapsedMs - waitedMs, waitedMs };
      }
    } catch {
      // Gone, or no schedstat: the wall clock.
    }
  }
  return { spentMs: elapsedMs, waitedMs: 0 };
}

/**
 * Runs `node [...nodeArgs] <exit-with-parent preload> ...args` as a supervised child and resolves
 * once it first reports `listening`; rejects when that first start fails (it exits or does not
 * listen within `startTimeoutMs`): a bad configuration must not loop silently.
 * @param {import('./supervisor.d.mts').SuperviseOptions} options
 * @returns {Promise<import('./supervisor.d.mts').Supervised>}
 */
export function supervise(options) {
  const timings = { ...SUPERVISION_TIMINGS, ...options.timings };
  const log = options.log ?? (() => {});
  const name = options.name;
  let spec = { nodeArgs: options.nodeArgs ?? [], args: options.args, env: options.env ?? process.env, cwd: options.cwd };
  let child;
  let status;
  let restarts = 0;
  let backoff = timings.initialBackoffMs;
  let closing = false;
  let restartTimer;
  let healthTimer;
  let startTimer;
  let waiters = [];
  let firstStart;
  let output = '';

  const keep = (line) => {
    output = (output + line + '\n').slice(-8_000);
    log(line);
  };

  const stopHealthChecks = () => {
    clearTimeout(healthTimer);
    healthTimer = undefined;
  };

  const startHealthChecks = (running) => {
    const url = typeof options.healthUrl === 'function' ? options.healthUrl(status) : options.healthUrl;
    if (!url) return;
    let misses = 0;
    const check = () => {
      healthTimer = setTimeout(() => {
        if (child !== running || closing) return;
        probe(url, timings.healthTimeoutMs).then((alive) => {
          if (child !== running || closing) return;
          misses = alive ? 0 : misses + 1;
          if (misses >= timings.healthFailures) {
            log(`[supervisor] ${name} (pid ${running.pid}) did not answer ${url} ${misses} times in a row: replacing it`);
            running.kill('SIGKILL');
            return;
          }
          check();
        });
      }, timings.healthIntervalMs);
    };
    check();
  };

  // A held port (heldPort.mjs): every start inherits its listening socket (fd LISTEN_FD), so the
  // port is never free between starts; while no child listens, the holder answers 503.
  const heldPort = options.heldPort;
  const launch = () => {
    const startedAt = Date.now();
    // Undefined when it could not be held again: the child then binds its port itself (PORT).
    const heldFd = heldPort?.fd();
    const running = spawn(process.execPath, [...spec.nodeArgs, '--import', EXIT_WITH_PARENT, ...spec.args], {
      cwd: spec.cwd,
      env: heldFd === undefined ? spec.env : { ...spec.env, LISTEN_FD: String(LISTEN_FD) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', ...(heldFd === undefined ? [] : [heldFd])],
    });
    child = running;
    running.on('error', (error) => keep(`[supervisor] ${name}: ${error.message}`));
    // The channel is the child's signal that this process lives; nothing to read on it here.
    running.channel?.unref();
    // The start limit counts the child's own time: when it runs out on the wall clock, the time the
    // child waited for a CPU is given again (a slow start on a busy machine is not a hang).
    const armStartLimit = (delayMs) => {
      startTimer = setTimeout(() => {
        if (child !== running) return;
        const { spentMs, waitedMs } = startTimeSpentMs(running.pid, Date.now() - startedAt);
        if (spentMs < timings.startTimeoutMs) {
          armStartLimit(Math.max(timings.startTimeoutMs - spentMs, 250));
          return;
        }
        const waited = waitedMs >= 1000 ? ` (not counting ${Math.round(waitedMs / 1000)} s it waited for a CPU)` : '';
        keep(`[supervisor] ${name} (pid ${running.pid}) did not listen within ${timings.startTimeoutMs / 1000} s${waited}`);
        running.kill('SIGKILL');
      }, delayMs);
    };
    armStartLimit(timings.startTimeoutMs);
    readline.createInterface({ input: running.stdout }).on('line', (line) => {
      if (line.startsWith('{')) {
        let parsed;
        try {
          parsed = JSON.parse(line);
        } catch {
          // An ordinary line that starts with a brace.
        }
        if (parsed && typeof parsed.event === 'string') {
          if (parsed.event === 'listening' && child === running) {
            clearTimeout(startTimer);
            heldPort?.handedOver();
            status = { ...parsed, pid: running.pid, restarts };
            const current = waiters;
            waiters = [];
            for (const resolve of current) resolve(status);
            startHealthChecks(running);
          }
          options.onStatus?.(parsed);
          return;
        }
      }
      keep(line);
    });
    readline.createInterface({ input: running.stderr }).on('line', keep);
    running.once('exit', (code, signal) => {
      clearTimeout(startTimer);
      stopHealthChecks();
      if (child === running) {
        child = undefined;
        status = undefined;
      }
      if (closing) return;
      // The child's copy of a held port closed with it: hold it again at once (503 until the next start).
      const held = heldPort ? heldPort.reopen().catch((error) => keep(`[supervisor] ${name}: port ${heldPort.port} could not be held again: ${error.message}`)) : Promise.resolve();
      if (firstStart) {
        const fail = firstStart.reject;
        firstStart = undefined;
        fail(new Error(`${name} exited with ${signal ?? `code ${code}`} before it listened:\n${output}`));
        return;
      }
      if (Date.now() - startedAt >= timings.healthyAfterMs) backoff = timings.initialBackoffMs;
      log(`[supervisor] ${name} exited with ${signal ?? `code ${code}`}; restarting in ${backoff} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        void held.then(() => {
          if (closing) return;
          restarts++;
          launch();
        });
      }, backoff);
      backoff = Math.min(backoff * 2, timings.maxBackoffMs);
    });
  };

  const handle = {
    name,
    pid: () => status?.pid,
    status: () => status,
    restarts: () => restarts,
    output: () => output,
    nextStart: () => new Promise((resolve) => waiters.push(resolve)),
    send(message) {
      if (child?.connected) child.send(message);
    },
    update(next) {
      spec = { ...spec, ...next, env: next.env ? { ...spec.env, ...next.env } : spec.env };
    },
    async close() {
      closing = true;
      clearTimeout(restartTimer);
      stopHealthChecks();
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return heldPort?.close();
      await new Promise((done) => {
        const kill = setTimeout(() => running.kill('SIGKILL'), timings.stopTimeoutMs);
        running.once('exit', () => {
          clearTimeout(kill);
          done();
        });
        running.kill('SIGTERM');
      });
      await heldPort?.close();
    },
  };

  return new Promise((resolve, reject) => {
    firstStart = { reject };
    waiters.push(() => {
      firstStart = undefined;
      resolve(handle);
    });
    launch();
  });
}

/** Whether `url` gives any HTTP answer within `timeoutMs` (a status is an answer: the process works). */
function probe(url, timeoutMs) {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: timeoutMs, agent: false }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(false));
  });
}
