import { randomBytes } from 'node:crypto';

/** A form field for `multipartBody`: text, or a file with name, type and bytes. */
export type FormEntry = [name: string, value: string | { fileName: string; type: string; bytes: Uint8Array }];

const quoted = (value: string) => `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;

/**
 * Encodes fields as a browser's multipart form post, for `app.inject`: the body bytes and the
 * content-type header with its boundary. Like browsers (and unlike Node's FormData), an
 * empty file input is sent as a part with `filename=""`.
 */
export async function multipartBody(entries: readonly FormEntry[]): Promise<{ payload: Buffer; contentType: string }> {
  const boundary = `----KhsFormBoundary${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of entries) {
    const head =
      typeof value === 'string'
        ? `Content-Disposition: form-data; name=${quoted(name)}\r\n`
        : `Content-Disposition: form-data; name=${quoted(name)}; filename=${quoted(value.fileName)}\r\nContent-Type: ${value.type}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n`));
    chunks.push(typeof value === 'string' ? Buffer.from(value.replace(/\r?\n/g, '\r\n')) : Buffer.from(value.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
