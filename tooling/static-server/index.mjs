import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

/** Content-hashed build outputs (`[name].[contenthash:8].js|css`): they never change. */
export const HASHED_FILE = /\.[0-9a-f]{8}\.(js|css)$/;

/** Published versions of a deploy target (tooling/deploy): `/versions/<version>/…`, never changed. */
const VERSION_PATH = /^\/versions\/([0-9A-Za-z][0-9A-Za-z.+_-]{0,127})(\/.*)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The one file a deploy or rollback replaces: read afresh on every request, never from a listing. */
const MANIFEST_PATH = '/mf-manifest.json';

/**
 * Serves `dir` on `host:port` (port 0 = any free port) with CORS, as the CDN of a remote would.
 * `dir` is a remote's build (`dist/`) or a deploy target of tooling/deploy (`versions/<v>/` plus
 * the switched `mf-manifest.json`). Files are sent precompressed (`x.js.br` / `x.js.gz` written by
 * the build) when the browser accepts it, with `Vary: Accept-Encoding`. Hashed chunks and
 * everything under `/versions/` are cached for a year (`immutable`); manifests and other files are
 * revalidated every time (`no-cache` + ETag: a 304 when unchanged). Files are looked up on each
 * request, so a deploy into the folder is served at once.
 * @returns {Promise<{ url: string, port: number, serve(dir: string): void, close(): Promise<void> }>}
 */
export async function serveDirectory({ dir, host = '127.0.0.1', port = 0 }) {
  // Swappable, so a test can redeploy the remote on the same origin.
  let assets = originHandler(dir);
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    assets(req, res, () => {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not found');
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actualPort = server.address().port;
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    /** Serves another build from now on, as a redeploy to this origin would. */
    serve(nextDir) {
      assets = originHandler(nextDir);
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function originHandler(root) {
  // Looked up per request (sirv's dev mode): a folder that changes is served as it is now.
  const live = sirv(root, {
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', HASHED_FILE.test(pathname) ? IMMUTABLE : 'no-cache');
    },
  });
  // A published version never changes: its file list is read once, on its first request.
  const versions = new Map();
  const versionHandler = (version) => {
    let handler = versions.get(version);
    if (!handler) {
      const versionDir = path.join(root, 'versions', version);
      if (!existsSync(versionDir) || !statSync(versionDir).isDirectory()) return undefined;
      handler = sirv(versionDir, {
        dev: false,
        etag: true,
        brotli: true,
        gzip: true,
        setHeaders(res) {
          res.setHeader('Cache-Control', IMMUTABLE);
        },
      });
      versions.set(version, handler);
    }
    return handler;
  };

  // In a deploy target, what the root does not hold comes from the live version (its standalone
  // page at `/standalone/`, say), revalidated: the live version changes with each switch.
  const liveVersion = async (req, res, next) => {
    let version;
    try {
      version = JSON.parse(await readFile(path.join(root, MANIFEST_PATH), 'utf8')).metaData?.buildVersion;
    } catch {
      return next();
    }
    const handler = typeof version === 'string' && VERSION_PATH.test(`/versions/${version}/`) ? versionHandler(version) : undefined;
    if (!handler) return next();
    const setHeader = res.setHeader.bind(res);
    // The version's handler marks its files immutable; through this alias they are not.
    res.setHeader = (name, value) => setHeader(name, String(name).toLowerCase() === 'cache-control' ? 'no-cache' : value);
    return handler(req, res, next);
  };

  return (req, res, next) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://origin').pathname);
    } catch {
      return next();
    }
    if (pathname === MANIFEST_PATH) {
      void sendManifest(root, req, res).then((sent) => sent || live(req, res, next), () => next());
      return;
    }
    const versioned = VERSION_PATH.exec(pathname);
    if (versioned) {
      const handler = versionHandler(versioned[1]);
      if (!handler) return next();
      req.url = versioned[2];
      return handler(req, res, next);
    }
    return live(req, res, () => void liveVersion(req, res, next));
  };
}

/**
 * The switched manifest, read whole in one go (a deploy renames a new one over it at any moment:
 * the answer is the old file or the new one, never the size of one with the bytes of the other),
 * with an ETag of its content. Resolves false when there is none.
 */
async function sendManifest(root, req, res) {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const candidates = [
    ...(/\bbr\b/.test(accepted) ? [['.br', 'br']] : []),
    ...(/\bgzip\b/.test(accepted) ? [['.gz', 'gzip']] : []),
    ['', undefined],
  ];
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
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304);
      res.end();
      return true;
    }
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', body.length);
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.writeHead(200);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
  return false;
}
