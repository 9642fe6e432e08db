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
  return new Supervision(options).firstStart();
}

/** One supervised part across its (re)starts: the running child, its status, its timers, its output. */
class Supervision {
  /** @param {import('./supervisor.d.mts').SuperviseOptions} options */
  constructor(options) {
    this.options = options;
    this.timings = { ...SUPERVISION_TIMINGS, ...options.timings };
    this.log = options.log ?? (() => {});
    this.name = options.name;
    // A held port (heldPort.mjs): every start inherits its listening socket (fd LISTEN_FD), so the
    // port is never free between starts; while no child listens, the holder answers 503.
    this.heldPort = options.heldPort;
    this.spec = { nodeArgs: options.nodeArgs ?? [], args: options.args, env: options.env ?? process.env, cwd: options.cwd };
    this.child = undefined;
    this.status = undefined;
    this.restarts = 0;
    this.backoff = this.timings.initialBackoffMs;
    this.closing = false;
    this.restartTimer = undefined;
    this.healthTimer = undefined;
    this.startTimer = undefined;
    /** Who waits for the next child to listen (`nextStart`, the first start). */
    this.waiters = [];
    /** Set until the first child listens: its failure rejects `supervise`. */
    this.pendingFirstStart = undefined;
    this.output = '';
  }

  /** Launches the first child; resolves with the handle once it listens, rejects when it fails. */
  firstStart() {
    return new Promise((resolve, reject) => {
      this.pendingFirstStart = { reject };
      this.waiters.push(() => {
        this.pendingFirstStart = undefined;
        resolve(this.handle());
      });
      this.launch();
    });
  }

  /** Keeps a line of the child's output (its last 8 KB) and logs it. */
  keep(line) {
    this.output = (this.output + line + '\n').slice(-8_000);
    this.log(line);
  }

  /** Spawns one child (on the held port when there is one) and follows its output and its exit. */
  launch() {
    const startedAt = Date.now();
    // Undefined when it could not be held again: the child then binds its port itself (PORT).
    const heldFd = this.heldPort?.fd();
    const { spec } = this;
    const running = spawn(process.execPath, [...spec.nodeArgs, '--import', EXIT_WITH_PARENT, ...spec.args], {
      cwd: spec.cwd,
      env: heldFd === undefined ? spec.env : { ...spec.env, LISTEN_FD: String(LISTEN_FD) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', ...(heldFd === undefined ? [] : [heldFd])],
    });
    this.child = running;
    running.on('error', (error) => this.keep(`[supervisor] ${this.name}: ${error.message}`));
    // The channel is the child's signal that this process lives; nothing to read on it here.
    running.channel?.unref();
    this.armStartLimit(running, startedAt, this.timings.startTimeoutMs);
    readline.createInterface({ input: running.stdout }).on('line', (line) => this.readStdoutLine(running, line));
    readline.createInterface({ input: running.stderr }).on('line', (line) => this.keep(line));
    running.once('exit', (code, signal) => this.exited(running, startedAt, signal ?? `code ${code}`));
  }

  /**
   * Kills a child that has not listened after `startTimeoutMs` of its own time: when the limit runs
   * out on the wall clock, the time the child waited for a CPU is given again (a slow start on a
   * busy machine is not a hang).
   */
  armStartLimit(running, startedAt, delayMs) {
    this.startTimer = setTimeout(() => {
      if (this.child !== running) return;
      const { spentMs, waitedMs } = startTimeSpentMs(running.pid, Date.now() - startedAt);
      const limitMs = this.timings.startTimeoutMs;
      if (spentMs < limitMs) {
        this.armStartLimit(running, startedAt, Math.max(limitMs - spentMs, 250));
        return;
      }
      const waited = waitedMs >= 1000 ? ` (not counting ${Math.round(waitedMs / 1000)} s it waited for a CPU)` : '';
      this.keep(`[supervisor] ${this.name} (pid ${running.pid}) did not listen within ${limitMs / 1000} s${waited}`);
      running.kill('SIGKILL');
    }, delayMs);
  }

  /** A JSON status line goes to `onStatus` (`listening` also marks the child ready); any other line is kept. */
  readStdoutLine(running, line) {
    const parsed = parseStatusLine(line);
    if (!parsed) {
      this.keep(line);
      return;
    }
    if (parsed.event === 'listening' && this.child === running) this.listening(running, parsed);
    this.options.onStatus?.(parsed);
  }

  /** The child serves: its start limit ends, the held port is its own, waiters learn its status, health checks begin. */
  listening(running, parsed) {
    clearTimeout(this.startTimer);
    this.heldPort?.handedOver();
    this.status = { ...parsed, pid: running.pid, restarts: this.restarts };
    const current = this.waiters;
    this.waiters = [];
    for (const resolve of current) resolve(this.status);
    this.startHealthChecks(running);
  }

  /** Requests the health URL every `healthIntervalMs`; `healthFailures` misses in a row kill the child. */
  startHealthChecks(running) {
    const { healthUrl } = this.options;
    const url = typeof healthUrl === 'function' ? healthUrl(this.status) : healthUrl;
    if (!url) return;
    let misses = 0;
    const check = () => {
      this.healthTimer = setTimeout(() => {
        if (this.child !== running || this.closing) return;
        probe(url, this.timings.healthTimeoutMs).then((alive) => {
          if (this.child !== running || this.closing) return;
          misses = alive ? 0 : misses + 1;
          if (misses >= this.timings.healthFailures) {
            this.log(`[supervisor] ${this.name} (pid ${running.pid}) did not answer ${url} ${misses} times in a row: replacing it`);
            running.kill('SIGKILL');
            return;
          }
          check();
        });
      }, this.timings.healthIntervalMs);
    };
    check();
  }

  stopHealthChecks() {
    clearTimeout(this.healthTimer);
    this.healthTimer = undefined;
  }

  /** A child ended: the first start fails with its output; a later one is started again after the back-off. */
  exited(running, startedAt, how) {
    clearTimeout(this.startTimer);
    this.stopHealthChecks();
    if (this.child === running) {
      this.child = undefined;
      this.status = undefined;
    }
    if (this.closing) return;
    // The child's copy of a held port closed with it: hold it again at once (503 until the next start).
    const { heldPort } = this;
    const held = heldPort
      ? heldPort.reopen().catch((error) => this.keep(`[supervisor] ${this.name}: port ${heldPort.port} could not be held again: ${error.message}`))
      : Promise.resolve();
    if (this.pendingFirstStart) {
      const fail = this.pendingFirstStart.reject;
      this.pendingFirstStart = undefined;
      fail(new Error(`${this.name} exited with ${how} before it listened:\n${this.output}`));
      return;
    }
    if (Date.now() - startedAt >= this.timings.healthyAfterMs) this.backoff = this.timings.initialBackoffMs;
    this.log(`[supervisor] ${this.name} exited with ${how}; restarting in ${this.backoff} ms`);
    this.scheduleRestart(held);
  }

  /** Starts the next child after the back-off (and once the port is held again), then doubles the back-off. */
  scheduleRestart(held) {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void held.then(() => {
        if (this.closing) return;
        this.restarts++;
        this.launch();
      });
    }, this.backoff);
    this.backoff = Math.min(this.backoff * 2, this.timings.maxBackoffMs);
  }

  /** Stops supervising: SIGTERM to the child, SIGKILL after `stopTimeoutMs`; then frees the held port. */
  async close() {
    this.closing = true;
    clearTimeout(this.restartTimer);
    this.stopHealthChecks();
    const running = this.child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return this.heldPort?.close();
    await new Promise((done) => {
      const kill = setTimeout(() => running.kill('SIGKILL'), this.timings.stopTimeoutMs);
      running.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      running.kill('SIGTERM');
    });
    await this.heldPort?.close();
  }

  /** @returns {import('./supervisor.d.mts').Supervised} */
  handle() {
    return {
      name: this.name,
      pid: () => this.status?.pid,
      status: () => this.status,
      restarts: () => this.restarts,
      output: () => this.output,
      nextStart: () => new Promise((resolve) => this.waiters.push(resolve)),
      send: (message) => {
        if (this.child?.connected) this.child.send(message);
      },
      update: (next) => {
        const { spec } = this;
        this.spec = { ...spec, ...next, env: next.env ? { ...spec.env, ...next.env } : spec.env };
      },
      close: () => this.close(),
    };
  }
}

/** The JSON status line `{"event": …}` a child printed, or undefined for any other line. */
function parseStatusLine(line) {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(line);
    return parsed && typeof parsed.event === 'string' ? parsed : undefined;
  } catch {
    // An ordinary line that starts with a brace.
    return undefined;
  }
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
