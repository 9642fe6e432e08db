import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdPort, PortInUseError } from './heldPort.mjs';
import { supervise } from './supervisor.mjs';

const CHILD = path.join(import.meta.dirname, 'test-fixtures', 'child.mjs');
const cleanups = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((step) => step()));
});

/** One GET on a fresh connection: status, Retry-After and the answering child's pid; or the connection error's code. */
function get(port) {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'], pid: response.headers['x-pid'] }));
    });
    request.on('error', (error) => resolve({ error: error.code }));
  });
}

/** A client that connects and never sends anything (a tab left open, a health check that hangs). */
function idleConnection(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    cleanups.push(async () => socket.destroy());
  });
}

/** Polls `condition` every 20 ms until it holds (or the test's timeout ends the test). */
async function until(condition) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const canListen = (port) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });

describe('holdPort', () => {
  it('holds a free port at once, answering 503 with Retry-After, and refuses a taken one', async () => {
    const held = await holdPort();
    cleanups.push(() => held.close());
    expect(held.port).toBeGreaterThan(0);
    expect(await get(held.port)).toEqual({ status: 503, retryAfter: '1', pid: undefined });
    expect(await canListen(held.port)).toBe(false);
    await expect(holdPort(held.port)).rejects.toBeInstanceOf(PortInUseError);
    await held.close();
    expect(await canListen(held.port)).toBe(true);
  });

  it('a client holding a connection open during the start stops nothing; the child serves on the held socket, which stays held across a restart', async () => {
    const held = await holdPort();
    const idle = await idleConnection(held.port);
    const supervised = await supervise({
      name: 'child on a held port',
      args: [CHILD],
      // It takes a while to listen (as the shell compiles), and again after the crash below.
      env: { ...process.env, CHILD_LISTEN_DELAY_MS: '300' },
      heldPort: held,
      timings: { initialBackoffMs: 300 },
    });
    cleanups.push(() => supervised.close());
    expect(idle.destroyed).toBe(false);
    expect(supervised.status().port).toBe(held.port);
    const first = supervised.pid();
    expect(await get(held.port)).toMatchObject({ status: 200, pid: String(first) });

    // Killed: the port is held again at once (503, never free for another process), then served by the next start.
    const next = supervised.nextStart();
    process.kill(first, 'SIGKILL');
    await until(async () => (await get(held.port)).status === 503);
    expect(await canListen(held.port)).toBe(false);
    const { pid } = await next;
    expect(pid).not.toBe(first);
    expect(await get(held.port)).toMatchObject({ status: 200, pid: String(pid) });

    await supervised.close();
    expect(await canListen(held.port)).toBe(true);
  });
});
