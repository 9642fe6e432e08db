// One request as raw bytes over a TCP socket (node:net), so a malformed request really is
// malformed: no client library fixes its framing, headers or encoding on the way. The answer is
// read far enough to know its status and that it ended (Content-Length, chunked end, or close).
import net from 'node:net';

/** A piece of what the client sends: bytes, or a pause (a trickling client). */
export type RawPiece = Buffer | { pauseMs: number };

export interface RawRequest {
  host: string;
  port: number;
  /** Loopback address the client connects from (127.x.y.z): spreads per-address rate limits. */
  localAddress?: string;
  pieces: RawPiece[];
  /** No complete answer within this many ms counts as a hang. */
  timeoutMs: number;
  /** The request is a HEAD: its answer has no body whatever its headers say. */
  head?: boolean;
}

export type RawOutcome =
  /** A complete answer with this status. */
  | { kind: 'response'; status: number; ms: number }
  /** The server closed the connection without a status line (refused the request outright). */
  | { kind: 'closed'; ms: number; error?: string }
  /** No complete answer in time (headers only, or nothing at all). */
  | { kind: 'hang'; ms: number; status?: number }
  /** The part's process died on this request (set by the runner, which watches the process). */
  | { kind: 'crash'; ms: number; error: string };

interface ParsedHead {
  status: number;
  headers: Map<string, string>;
  bodyStart: number;
}

/** Status line and headers of the first final (non-1xx) answer in `data`, once complete. */
function parseHead(data: Buffer): ParsedHead | undefined {
  let offset = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', offset);
    if (end === -1) return undefined;
    const lines = data.subarray(offset, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '');
    if (!match) return { status: 0, headers: new Map(), bodyStart: end + 4 };
    const status = Number(match[1]);
    if (status >= 100 && status < 200 && status !== 101) {
      offset = end + 4;
      continue;
    }
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    return { status, headers, bodyStart: end + 4 };
  }
}

/** Whether the answer whose head is `head` is complete in `data` (undefined: it ends at close). */
function answerComplete(head: ParsedHead, data: Buffer, isHead: boolean): boolean | undefined {
  if (isHead || head.status === 204 || head.status === 304) return true;
  const length = head.headers.get('content-length');
  if (length !== undefined) return data.length - head.bodyStart >= Number(length);
  if (/chunked/i.test(head.headers.get('transfer-encoding') ?? '')) return data.indexOf('\r\n0\r\n\r\n', head.bodyStart - 2) !== -1 || data.subarray(head.bodyStart).toString('latin1').startsWith('0\r\n\r\n');
  return undefined;
}

/** Sends `request.pieces` and resolves with what became of it; never rejects. */
export function sendRaw(request: RawRequest): Promise<RawOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let received = Buffer.alloc(0);
    const socket = net.connect({ host: request.host, port: request.port, ...(request.localAddress ? { localAddress: request.localAddress } : {}) });
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      const head = parseHead(received);
      finish({ kind: 'hang', ms: elapsed(), ...(head ? { status: head.status } : {}) });
    }, request.timeoutMs);
    const settleFromData = (closed: boolean, error?: string) => {
      const head = parseHead(received);
      if (!head) {
        if (closed) finish({ kind: 'closed', ms: elapsed(), ...(error ? { error } : {}) });
        return;
      }
      const complete = answerComplete(head, received, request.head === true);
      if (complete || closed) finish({ kind: 'response', status: head.status, ms: elapsed() });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      settleFromData(false);
    });
    socket.on('end', () => settleFromData(true));
    socket.on('close', () => settleFromData(true));
    // A reset after the answer arrived still leaves the answer; before it, the request was refused.
    socket.on('error', (error: NodeJS.ErrnoException) => settleFromData(true, error.code ?? error.message));
    socket.once('connect', async () => {
      for (const piece of request.pieces) {
        if (settled || socket.destroyed) return;
        if (Buffer.isBuffer(piece)) {
          // The server may answer (and close) before the whole body is sent: a failed write is fine.
          await new Promise<void>((done) => socket.write(piece, () => done()));
        } else {
          await new Promise((done) => setTimeout(done, piece.pauseMs));
        }
      }
    });
  });
}
