// An origin that can hold its answers: a pass-through proxy in front of a remote's static origin
// which, while held, keeps every request waiting (as a paused process would: the connection is
// accepted, nothing comes back) and answers them all once released. The shell is pointed at it
// instead of the origin (its manifest URL variable), so a test decides when the remote is away
// without signals or timing (issue 35: an origin paused through the shell's start).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldOrigin {
  /** The proxy's origin, without a trailing slash (`http://127.0.0.1:41234`). */
  url: string;
  /** Where requests go once answered (the real origin), set when the stack logs it. */
  setTarget(origin: string): void;
  /** Holds every request from now on. */
  hold(): void;
  /** Answers the waiting requests and every later one. */
  release(): void;
  close(): Promise<void>;
}

/** A proxy that starts held (nothing answered until `release()`). */
export async function heldOrigin(): Promise<HeldOrigin> {
  let target: URL | undefined;
  let held = true;
  const waiting = new Set<() => void>();
  const forward = (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (response.destroyed) return;
    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, host: target!.host }, agent: false },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    // A static origin: GET and HEAD, no body.
    upstream.end();
  };
  const server = http.createServer((request, response) => {
    if (!held && target) return forward(request, response);
    const go = () => {
      waiting.delete(go);
      forward(request, response);
    };
    waiting.add(go);
    // The client gave up (the shell's deadline): nothing to answer.
    response.on('close', () => waiting.delete(go));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const flush = () => {
    if (held || !target) return;
    for (const go of [...waiting]) go();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTarget(origin) {
      target = new URL(origin);
      flush();
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
      flush();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
