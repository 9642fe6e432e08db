import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { startTimeSpentMs, supervise } from './supervisor.mjs';

const CHILD = path.join(import.meta.dirname, 'test-fixtures', 'child.mjs');
const PARENT = path.join(import.meta.dirname, 'test-fixtures', 'parent.mjs');
const running = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((supervised) => supervised.close()));
});

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls `condition` every 50 ms until it holds (or the test's timeout ends the test). */
async function until(condition) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('supervise', () => {
  it('restarts a child that exits, with a back-off that doubles per crash in a row', async () => {
    const supervised = await supervise({
      name: 'crashing child',
      args: [CHILD],
      env: { ...process.env, CHILD_EXIT_AFTER_MS: '50' },
      timings: { initialBackoffMs: 200, maxBackoffMs: 800 },
    });
    running.push(supervised);
    const starts = [Date.now()];
    const pids = [supervised.pid()];
    for (let i = 0; i < 3; i++) {
      const status = await supervised.nextStart();
      starts.push(Date.now());
      pids.push(status.pid);
    }
    expect(supervised.restarts()).toBe(3);
    expect(new Set(pids).size).toBe(4);
    // Each gap holds the child's 50 ms of life plus a back-off of 200, 400, then 800 ms (lower bounds only).
    const gaps = starts.slice(1).map((at, i) => at - starts[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(200);
    expect(gaps[1]).toBeGreaterThanOrEqual(400);
    expect(gaps[2]).toBeGreaterThanOrEqual(800);
  });

  it('replaces a hung child (SIGSTOP) once its health check stops answering, on the same port', async () => {
    const supervised = await supervise({
      name: 'child',
      args: [CHILD],
      healthUrl: (status) => `${status.url}/health`,
      timings: { healthIntervalMs: 100, healthTimeoutMs: 300, healthFailures: 2, initialBackoffMs: 50 },
    });
    running.push(supervised);
    const hung = supervised.pid();
    const port = supervised.status().port;
    supervised.update({ env: { ...process.env, PORT: String(port) } });
    const replaced = supervised.nextStart();
    process.kill(hung, 'SIGSTOP');
    const status = await replaced;
    expect(status.pid).not.toBe(hung);
    expect(status.port).toBe(port);
    await until(() => !isAlive(hung));
    expect(await (await fetch(`${status.url}/`)).text()).toBe('ok');
  });

  it('keeps a child that answers its health checks', async () => {
    const supervised = await supervise({ name: 'child', args: [CHILD], healthUrl: (status) => `${status.url}/`, timings: { healthIntervalMs: 50, healthTimeoutMs: 500, healthFailures: 1 } });
    running.push(supervised);
    const pid = supervised.pid();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([supervised.pid(), supervised.restarts()]).toEqual([pid, 0]);
  });

  it('rejects when the first start fails, with the child output, and does not loop', async () => {
    const failed = await supervise({ name: 'misconfigured child', args: [CHILD], env: { ...process.env, CHILD_FAIL_START: '1' } }).catch((error) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed.message).toContain('misconfigured child exited with code 3 before it listened');
    expect(failed.message).toContain('bad configuration');
  });

  it('the start limit does not count the time a child waited for a CPU; a child that never listens is still stopped', async () => {
    // 90 s on the wall clock, 40 s of it in the run queue (schedstat: on-CPU ns, run-queue wait ns, slices).
    expect(startTimeSpentMs(42, 90_000, () => '1000000 40000000000 5\n')).toEqual({ spentMs: 50_000, waitedMs: 40_000 });
    // No schedstat (gone, not Linux): the wall clock.
    const unreadable = () => {
      throw new Error('ENOENT');
    };
    expect(startTimeSpentMs(42, 90_000, unreadable)).toEqual({ spentMs: 90_000, waitedMs: 0 });
    expect(startTimeSpentMs(undefined, 5_000)).toEqual({ spentMs: 5_000, waitedMs: 0 });
    const own = startTimeSpentMs(process.pid, 1_000);
    expect(own.spentMs + own.waitedMs).toBe(1_000);
    // A child that sleeps and never listens is off the run queue: its time counts and it is stopped.
    const hung = await supervise({
      name: 'silent child',
      args: [CHILD],
      env: { ...process.env, CHILD_LISTEN_DELAY_MS: '600000' },
      timings: { startTimeoutMs: 1_000 },
    }).catch((error) => error);
    expect(hung).toBeInstanceOf(Error);
    expect(hung.message).toContain('silent child (pid');
    expect(hung.message).toMatch(/did not listen within 1 s/);
  });

  it('a port taken by another process fails the first start', async () => {
    const blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const failed = await supervise({ name: 'child', args: [CHILD], env: { ...process.env, PORT: String(blocker.address().port) } }).catch((error) => error);
      expect(failed.message).toContain('EADDRINUSE');
    } finally {
      blocker.close();
    }
  });

  it('close() stops the child for good (no restart)', async () => {
    const supervised = await supervise({ name: 'child', args: [CHILD], timings: { initialBackoffMs: 10 } });
    const pid = supervised.pid();
    await supervised.close();
    expect(isAlive(pid)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(supervised.pid()).toBeUndefined();
  });

  it('a supervisor killed with SIGKILL leaves no child behind', async () => {
    const parent = spawn(process.execPath, [PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise((resolve) => readline.createInterface({ input: parent.stdout }).once('line', resolve));
    const { childPid } = JSON.parse(line);
    expect(isAlive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    await until(() => !isAlive(childPid));
    expect(isAlive(childPid)).toBe(false);
  });
});
