// A port held for a process that is not listening yet (the shell: its port is named before it
// starts, in the search server's SEARCH_ALLOWED_ORIGINS or a PUBLIC_BASE_URL). The port is bound
// (listening) from the moment it is chosen, so nothing else on the machine can take it, and its
// socket is handed to the process itself (inherited as a file descriptor, `LISTEN_FD`): the port is
// never free between the choice and the process's listen, nor during a restart. Meanwhile every
// request on it gets 503 with `Retry-After` and `Connection: close`: nothing that connects early
// (a tab left open, a health check, a client that never sends) can delay or stop the start.
import http from 'node:http';

/** The file descriptor a child gets the held socket on (0–2 stdio, 3 the supervisor's IPC channel). */
export const LISTEN_FD = 4;
/** Seconds a client is told to wait (`Retry-After`) while the process is not up. */
const RETRY_AFTER_SECONDS = 1;

/** The port was taken (by another process) when it was to be held. */
export class PortInUseError extends Error {
  constructor(port, host, cause) {
    super(`port ${port} on ${host} is in use`, { cause });
    this.name = 'PortInUseError';
    this.code = 'EADDRINUSE';
    this.port = port;
  }
}

/** A listening server that answers every request 503 with `Retry-After` and closes the connection. */
function standInServer() {
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store', Connection: 'close' });
    response.end('Starting: try again in a moment.\n');
  });
  // A client that connects and never sends is dropped after a while; nothing waits for it anyway.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  return server;
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, host, error) : error));
    server.listen({ port, host, exclusive: true }, () => resolve(server.address().port));
  });
}

/**
 * Holds `port` on `host` (0: a free one, chosen by the system) and resolves once it listens;
 * rejects with `PortInUseError` when the port is taken.
 * @returns {Promise<import('./heldPort.d.mts').HeldPort>}
 */
export async function holdPort(port = 0, host = '127.0.0.1') {
  let server = standInServer();
  const actualPort = await listen(server, port, host);
  let closed = false;
  // The stand-ins that gave their socket away and may still finish an answer.
  const retired = new Set();
  return {
    port: actualPort,
    host,
    url: `http://${host}:${actualPort}`,
    fd() {
      // The listening socket's descriptor (libuv's TCP handle): spawn's stdio duplicates it into the child.
      return server?._handle?.fd;
    },
    handedOver() {
      if (!server) return;
      // The child listens on its own copy of the socket: this process stops accepting and closes its copy.
      const given = server;
      server = undefined;
      retired.add(given);
      given.close(() => retired.delete(given));
      given.closeIdleConnections();
    },
    async reopen() {
      if (server || closed) return;
      // The child is gone (its copy closed with it): hold the same port again at once.
      const next = standInServer();
      await listen(next, actualPort, host);
      if (closed) {
        next.close();
        return;
      }
      server = next;
    },
    async close() {
      closed = true;
      const all = [...retired, ...(server ? [server] : [])];
      server = undefined;
      await Promise.all(
        all.map(
          (each) =>
            new Promise((resolve) => {
              each.close(() => resolve());
              each.closeAllConnections();
            }),
        ),
      );
    },
  };
}
