import { PassThrough, type Readable } from 'node:stream';
import busboy, { type BusboyInstance } from '@fastify/busboy';
import { FORM_TOKEN_FIELD } from 'contracts';

/** Most of a form the edge reads before its token must have come (the page's form sends it first). */
export const TOKEN_GATE_PREFIX_MAX_BYTES = 1024 * 1024;

/** A form post the edge refused while looking for its token; nothing was forwarded. */
export class FormPostRefusedAtEdge extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 408 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'FormPostRefusedAtEdge';
  }
}

/** What the gate needs to know about the post. */
export interface TokenGateOptions {
  /** The request's headers (content type with the boundary). */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the `X-CSRF-Token` header holds a valid token (a script may send it instead of the field). */
  headerTokenValid: boolean;
  /** Whether a token belongs to the visitor's secret cookie. */
  isValid(token: string): boolean;
  /** Largest body forwarded (bytes): a body growing past it is cut off, so the service gets a truncated one and refuses it. */
  bodyLimit: number;
}

/**
 * Reads the start of a multipart form post until its CSRF token (`FORM_TOKEN_FIELD`) decides it, so a
 * forged upload is refused before a byte of it goes to the service (and before its file is read):
 * - the `_csrf` field, when it arrives: valid → the post is forwarded; wrong → 403 (it wins over a
 *   valid header token, as before);
 * - a file part before any valid token → 403 unread; with a valid header token → forwarded;
 * - the form ends without a valid token → 403 (a valid header token: forwarded);
 * - malformed multipart before the decision → 400; a body that stopped coming (its deadline at the
 *   edge passed) → 408; a token not within the first
 *   `TOKEN_GATE_PREFIX_MAX_BYTES` → 403.
 * Resolves to the body to forward: the bytes read so far, then the rest as it streams in.
 *
 * Why a second multipart reader besides the service's own (`@fastify/multipart` in the contact
 * service's `readContactSubmission.ts`): the edge must refuse a forged upload before its file is
 * read, and must stream an accepted post on without holding it, so it parses only up to the token
 * and forwards raw bytes; the service reads the whole form into fields and a file. The token
 * field's name is one fact, contracts' `FORM_TOKEN_FIELD`; the form sends it first.
 */
export function gateFormPost(payload: Readable, options: TokenGateOptions): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const buffered: Buffer[] = [];
    let bufferedBytes = 0;
    let decided = false;
    let parser: BusboyInstance;

    const onData = (chunk: Buffer) => {
      if (decided) return;
      buffered.push(chunk);
      bufferedBytes += chunk.length;
      // The parser sees the chunk first: a token inside it decides (one large chunk may hold the whole form).
      parser.write(chunk);
      if (!decided && bufferedBytes > TOKEN_GATE_PREFIX_MAX_BYTES) refuse(new FormPostRefusedAtEdge(403, 'The form token is missing or invalid'));
    };
    const onEnd = () => {
      if (decided) return;
      // An empty form carries no token (not a malformed one).
      if (bufferedBytes === 0 && !options.headerTokenValid) refuse(new FormPostRefusedAtEdge(403, 'The form token is missing or invalid'));
      else parser.end();
    };
    const stopReading = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      parser?.removeAllListeners();
      parser?.on('error', () => undefined);
    };
    const refuse = (error: FormPostRefusedAtEdge) => {
      if (decided) return;
      decided = true;
      stopReading();
      // The rest of the upload is read and dropped, so the refusal still reaches the visitor.
      payload.resume();
      reject(error);
    };
    const pass = () => {
      if (decided) return;
      decided = true;
      stopReading();
      resolve(continuedBody(payload, buffered, bufferedBytes, options.bodyLimit));
    };

    try {
      parser = busboy({ headers: options.headers as Record<string, string> & { 'content-type': string }, limits: { fieldSize: 64 * 1024, parts: 64, fields: 64, files: 64 } });
    } catch {
      reject(new FormPostRefusedAtEdge(400, 'The form data could not be read (malformed multipart header)'));
      payload.resume();
      return;
    }
    parser.on('field', (name: string, value: string) => {
      if (name !== FORM_TOKEN_FIELD) return;
      if (options.isValid(value)) pass();
      else refuse(new FormPostRefusedAtEdge(403, 'The form token is missing or invalid'));
    });
    parser.on('file', (_name: string, file: Readable) => {
      file.resume();
      if (options.headerTokenValid) pass();
      else refuse(new FormPostRefusedAtEdge(403, 'The form token is missing or invalid'));
    });
    parser.on('error', () => refuse(new FormPostRefusedAtEdge(400, 'The form data could not be read (malformed multipart body)')));
    parser.on('finish', () => {
      if (options.headerTokenValid) pass();
      else refuse(new FormPostRefusedAtEdge(403, 'The form token is missing or invalid'));
    });
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', (error: Error & { statusCode?: number }) =>
      refuse(error.statusCode === 408 ? new FormPostRefusedAtEdge(408, error.message) : new FormPostRefusedAtEdge(400, 'The form data could not be read')),
    );
  });
}

/**
 * The body to forward once the token let the post through: the bytes read so far, then the rest of
 * the payload as it streams in; it fails when the payload does or grows past `bodyLimit`.
 */
function continuedBody(payload: Readable, buffered: Buffer[], bufferedBytes: number, bodyLimit: number): PassThrough {
  payload.pause();
  const body = new PassThrough();
  // A failed forward destroys the body it was given: the visitor's connection must survive it.
  body.on('error', () => {
    payload.unpipe(body);
    payload.resume();
  });
  for (const chunk of buffered) body.write(chunk);
  let received = bufferedBytes;
  // A body cut off at the edge (its deadline passed) must fail the forward, not leave it waiting.
  payload.on('error', (error) => body.destroy(error));
  payload.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > bodyLimit) body.destroy(new Error('body over the limit'));
  });
  payload.pipe(body);
  return body;
}
