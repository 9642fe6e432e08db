// One HTTP/1.1 exchange as raw bytes over its own socket, for what a client library will not send
// (absolute-form targets, invalid percent-encoding) or hides (interim `100 Continue` answers).
import net from 'node:net';

/** What came back: the interim (1xx) statuses in order, then the final answer. */
export interface RawAnswer {
  interim: number[];
  status: number;
  /** Header names in lower case (the last one wins when repeated). */
  headers: Record<string, string>;
  /** The body, de-chunked when it came chunked. */
  body: string;
}

/** `data` (latin1) split into its 1xx answers and the final one. */
function parseAnswers(data: string): RawAnswer {
  const interim: number[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`no complete answer in ${JSON.stringify(data.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    rest = rest.slice(end + 4);
    if (status >= 100 && status < 200) {
      interim.push(status);
      continue;
    }
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    let body = rest;
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      body = '';
      for (let offset = 0; ; ) {
        const lineEnd = rest.indexOf('\r\n', offset);
        const size = parseInt(rest.slice(offset, lineEnd), 16);
        if (!(size > 0)) break;
        body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
        offset = lineEnd + 2 + size + 2;
      }
    }
    return { interim, status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
  }
}

/**
 * Sends `head` (request line and headers, without the blank line; `Connection: close` is added) to
 * `127.0.0.1:port`, then `body`: at once, or with `awaitContinue` only after an interim `100
 * Continue` (or without it, once the server answered with a final status and closed).
 * Resolves with every answer when the server closes the connection.
 */
export function rawExchange(port: number, head: string, body: Buffer | string = '', options: { awaitContinue?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let bodySent = false;
    const sendBody = () => {
      if (bodySent) return;
      bodySent = true;
      socket.write(body);
    };
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      socket.write(`${head}\r\nConnection: close\r\n\r\n`);
      if (!options.awaitContinue) sendBody();
    });
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (options.awaitContinue && /^HTTP\/1\.1 100 [^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/.test(data)) sendBody();
    });
    // The server may close while a body it refused is still being written.
    socket.on('error', (error: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') ? undefined : reject(error)));
    socket.on('close', () => {
      try {
        resolve(parseAnswers(data));
      } catch (error) {
        reject(error);
      }
    });
  });
}
