// A remote's static origin, as its CDN would serve it: a small handler on node:http (no framework),
// so every answer — Range, methods, what is hidden — is decided here and nothing can throw out of
// a request into the process (issue 21: sirv 3.0.2 threw an uncaught ERR_OUT_OF_RANGE on a reversed
// or oversized Range and answered `bytes=-5` with the first six bytes).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import { observeHttpRequest, serveMetricsOver } from '@khs/observability';
import path from 'node:path';

/** Content-hashed build outputs (`[name].[contenthash:8].js|css`): they never change. */
export const HASHED_FILE = /\.[0-9a-f]{8}\.(js|css)$/;

/** Published versions of a deploy target (tooling/deploy): `/versions/<version>/…`, never changed. */
const VERSION_PATH = /^\/versions\/([0-9A-Za-z][0-9A-Za-z.+_-]{0,127})(\/.*)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The one file a deploy or rollback replaces: read afresh on every request, never from a listing. */
const MANIFEST_PATH = '/mf-manifest.json';
/** The methods an origin answers; anything else gets 405 with this `Allow`. */
export const ALLOWED_METHODS = 'GET, HEAD';
/**
 * Files in a build or deploy target that no browser and no shell loads: the deploy history
 * (tooling/deploy) and the build's stats. Hidden files (`.deploy.lock`, temporary files) are never
 * served either.
 */
const PRIVATE_FILE_NAMES = new Set(['deployments.json', 'mf-stats.json']);
const PRECOMPRESSED = [
  ['br', '.br'],
  ['gzip', '.gz'],
];
const CONTENT_TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * Serves `dir` on `host:port` (port 0 = any free port) with CORS, as the CDN of a remote would.
 * `dir` is a remote's build (`dist/`) or a deploy target of tooling/deploy (`versions/<v>/` plus
 * the switched `mf-manifest.json`). Files are sent precompressed (`x.js.br` / `x.js.gz` written by
 * the build) when the browser accepts it, with `Vary: Accept-Encoding`. Hashed chunks and
 * everything under `/versions/` are cached for a year (`immutable`); manifests and other files are
 * revalidated every time (`no-cache` + ETag: a 304 when unchanged). Files are looked up on each
 * request, so a deploy into the folder is served at once. GET and HEAD only (405 otherwise); single
 * byte ranges per RFC 9110 (206, or 416 with `Content-Range: bytes *\/len`; several ranges are
 * ignored: the whole file, 200).
 * `GET /metrics` answers Prometheus behind `metricsToken` (default `OPERATOR_TOKEN`; none: a 404 as any
 * missing file); every request is counted by route (`originRoute`).
 * @param {{ dir: string, host?: string, port?: number, metricsToken?: string }} options host default `127.0.0.1`, port default 0
 * @returns {Promise<{ url: string, port: number, serve(dir: string): void, close(): Promise<void> }>}
 */
export async function serveDirectory({ dir, host = '127.0.0.1', port = 0, metricsToken = process.env.OPERATOR_TOKEN?.trim() || undefined }) {
  // Swappable, so a test can redeploy the remote on the same origin.
  let root = dir;
  const serveMetrics = serveMetricsOver(metricsToken);
  const server = http.createServer((req, res) => {
    observeHttpRequest(req, res, () => originRoute(req.url ?? '/'));
    const answer = req.url === METRICS_PATH && req.method === 'GET' ? serveMetrics(req, res) : Promise.resolve(false);
    answer.then((answered) => answered || handleOriginRequest(root, req, res)).catch((error) => failRequest(res, error));
  });
  // A malformed request line or header: a 400 for that connection, never an exception.
  server.on('clientError', (_error, socket) => {
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    port: actualPort,
    /** Serves another build from now on, as a redeploy to this origin would. */
    serve(nextDir) {
      root = nextDir;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const METRICS_PATH = '/metrics';

/** A request's route label: what kind of file it asks for, never its name (bounded). */
export function originRoute(url) {
  const path = url.split('?')[0];
  if (path === METRICS_PATH) return METRICS_PATH;
  if (/^\/mf-manifest\.json(\.br|\.gz)?$/.test(path)) return '/mf-manifest.json';
  if (path.startsWith('/versions/')) return path.endsWith('/mf-manifest.json') ? '/versions/:version/mf-manifest.json' : '/versions/:version/*';
  if (path.startsWith('/standalone/')) return '/standalone/*';
  return '/*';
}

function failRequest(res, error) {
  console.error(`[static-server] ${error instanceof Error ? error.message : error}`);
  if (!res.headersSent) {
    res.statusCode = 500;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('Internal error');
  } else {
    res.destroy();
  }
}

function sendStatus(res, status, text, headers = {}) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(text);
}

/**
 * Answers one request for the origin `root`. Exported for tests; never rejects for bad input (it
 * becomes a 4xx), only for a failure of the machine (the caller answers 500).
 */
export async function handleOriginRequest(root, req, res) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendStatus(res, 405, 'Method not allowed', { Allow: ALLOWED_METHODS });
  }
  const pathname = requestPath(req.url);
  if (pathname === undefined) return sendStatus(res, 404, 'Not found');
  if (pathname === MANIFEST_PATH && (await sendManifest(root, req, res))) return;

  const versioned = VERSION_PATH.exec(pathname);
  if (versioned) {
    const file = await findFile(path.join(root, 'versions', versioned[1]), versioned[2]);
    if (!file) return sendStatus(res, 404, 'Not found');
    return sendFile(req, res, file, IMMUTABLE);
  }
  const file = await findFile(root, pathname);
  if (file) return sendFile(req, res, file, HASHED_FILE.test(file.path) ? IMMUTABLE : 'no-cache');
  // In a deploy target, what the root does not hold comes from the live version (its standalone
  // page at `/standalone/`, say), revalidated: the live version changes with each switch.
  const version = await liveVersion(root);
  const fromLive = version ? await findFile(path.join(root, 'versions', version), pathname) : undefined;
  if (fromLive) return sendFile(req, res, fromLive, 'no-cache');
  return sendStatus(res, 404, 'Not found');
}

/**
 * The decoded path of a request URL, or undefined when it is malformed or names something an origin
 * never serves: a `..`/`.` segment, a hidden file or folder, a NUL, a backslash, a private file.
 */
function requestPath(url) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(url ?? '/', 'http://origin').pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return undefined;
  const segments = pathname.split('/');
  if (segments.some((segment) => segment.startsWith('.'))) return undefined;
  const base = segments.at(-1) ?? '';
  if (PRIVATE_FILE_NAMES.has(base.replace(/\.(br|gz)$/, ''))) return undefined;
  return pathname;
}

/** The regular file `pathname` names under `base` (a folder's `index.html`), with its stat; undefined when there is none. */
async function findFile(base, pathname) {
  const candidate = path.join(base, pathname);
  // path.join normalises; `requestPath` already refused `..`, this is the second lock.
  if (candidate !== base && !candidate.startsWith(base.endsWith(path.sep) ? base : base + path.sep)) return undefined;
  for (const file of [candidate, path.join(candidate, 'index.html')]) {
    try {
      const stats = await stat(file);
      if (stats.isFile()) return { path: file, stats };
    } catch {
      // Not there: try the next candidate.
    }
  }
  return undefined;
}

async function liveVersion(root) {
  try {
    const version = JSON.parse(await readFile(path.join(root, MANIFEST_PATH), 'utf8')).metaData?.buildVersion;
    return typeof version === 'string' && VERSION_PATH.test(`/versions/${version}/`) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The precompressed copy of `file` the request accepts (`.br` before `.gz`), else the file itself. */
async function representation(req, file) {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  for (const [encoding, suffix] of PRECOMPRESSED) {
    if (!acceptsEncoding(accepted, encoding)) continue;
    try {
      const stats = await stat(file.path + suffix);
      if (stats.isFile()) return { path: file.path + suffix, stats, encoding };
    } catch {
      // No such copy.
    }
  }
  return { ...file, encoding: undefined };
}

/** Whether an `Accept-Encoding` value accepts `encoding` (listed, and not with `q=0`). */
function acceptsEncoding(accepted, encoding) {
  return accepted.split(',').some((entry) => {
    const [name, ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (name !== encoding) return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

async function sendFile(req, res, file, cacheControl) {
  const chosen = await representation(req, file);
  const size = chosen.stats.size;
  const etag = `W/"${size.toString(16)}-${Math.floor(chosen.stats.mtimeMs).toString(16)}${chosen.encoding ? `-${chosen.encoding}` : ''}"`;
  res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file.path).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', chosen.stats.mtime.toUTCString());
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Accept-Ranges', 'bytes');
  if (chosen.encoding) res.setHeader('Content-Encoding', chosen.encoding);
  if (matchesEtag(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }

  let start = 0;
  let end = size - 1;
  // Range applies to GET only (RFC 9110 §14.2), and not when If-Range names another version.
  const rangeHeader = req.method === 'GET' ? req.headers.range : undefined;
  const ifRange = req.headers['if-range'];
  if (rangeHeader !== undefined && (ifRange === undefined || ifRange === etag.replace(/^W\//, '') || ifRange === etag)) {
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${size}`);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.removeHeader('Content-Encoding');
      res.end('Range not satisfiable');
      return;
    }
    if (range) {
      ({ start, end } = range);
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    }
  }
  res.setHeader('Content-Length', size === 0 ? 0 : end - start + 1);
  if (res.statusCode !== 206) res.statusCode = 200;
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  const stream = createReadStream(chosen.path, { start, end });
  stream.on('error', (error) => failRequest(res, error));
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}

function matchesEtag(header, etag) {
  if (typeof header !== 'string') return false;
  const weak = (tag) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/**
 * The one byte range a `Range` header asks of a representation of `size` bytes (RFC 9110 §14.1.2):
 * `{ start, end }` (inclusive), `'unsatisfiable'` (416: no range in it can be served, or a
 * `bytes=` range-set that is malformed or reversed), or undefined when the header is to be ignored
 * (another unit, or several ranges: the whole representation is sent, which the RFC allows).
 * @param {string} header
 * @param {number} size
 * @returns {{ start: number, end: number } | 'unsatisfiable' | undefined}
 */
export function parseRange(header, size) {
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return undefined;
  const specs = match[1].split(',').map((spec) => spec.trim()).filter((spec) => spec !== '');
  if (specs.length === 0) return 'unsatisfiable';
  const ranges = [];
  for (const spec of specs) {
    const parts = /^(\d*)-(\d*)$/.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) return 'unsatisfiable';
    if (parts[1] === '') {
      // Suffix: the last N bytes (all of them when N is larger); N = 0 asks for nothing.
      const suffix = Number(parts[2]);
      if (suffix === 0 || size === 0) continue;
      ranges.push({ start: Math.max(0, size - Math.min(suffix, size)), end: size - 1 });
      continue;
    }
    const first = Number(parts[1]);
    const last = parts[2] === '' ? Infinity : Number(parts[2]);
    if (last < first) return 'unsatisfiable';
    if (first >= size) continue;
    ranges.push({ start: first, end: Math.min(last, size - 1) });
  }
  if (ranges.length === 0) return 'unsatisfiable';
  return specs.length === 1 ? ranges[0] : undefined;
}

/**
 * The switched manifest, read whole in one go (a deploy renames a new one over it at any moment:
 * the answer is the old file or the new one, never the size of one with the bytes of the other),
 * with an ETag of its content. Resolves false when there is none.
 */
async function sendManifest(root, req, res) {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const candidates = [...PRECOMPRESSED.filter(([encoding]) => acceptsEncoding(accepted, encoding)).map(([encoding, suffix]) => [suffix, encoding]), ['', undefined]];
  for (const [suffix, encoding] of candidates) {
    let body;
    try {
      body = await readFile(path.join(root, `${MANIFEST_PATH}${suffix}`));
    } catch {
      continue;
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}${suffix}"`;
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', etag);
    if (matchesEtag(req.headers['if-none-match'], etag)) {
      res.writeHead(304);
      res.end();
      return true;
    }
    // The manifest is small and replaced whole: a Range on it is ignored (RFC 9110 allows it).
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', body.length);
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.writeHead(200);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
  return false;
}
