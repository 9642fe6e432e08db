import http from 'node:http';
import sirv from 'sirv';

/** Content-hashed build outputs (`[name].[contenthash:8].js|css`): they never change. */
export const HASHED_FILE = /\.[0-9a-f]{8}\.(js|css)$/;

/**
 * Serves `dir` on `host:port` (port 0 = any free port) with CORS, as the CDN of a remote would.
 * Files are sent precompressed (`x.js.br` / `x.js.gz` written by the build) when the browser
 * accepts it, with `Vary: Accept-Encoding`. Hashed chunks are cached for a year (`immutable`);
 * manifests and entry files are revalidated every time (`no-cache` + ETag: a 304 when unchanged).
 * @returns {Promise<{ url: string, port: number, serve(dir: string): void, close(): Promise<void> }>}
 */
export async function serveDirectory({ dir, host = '127.0.0.1', port = 0 }) {
  const handlerFor = (root) => sirv(root, {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', HASHED_FILE.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Swappable, so a test can redeploy the remote on the same origin (sirv lists files once).
  let assets = handlerFor(dir);
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
      assets = handlerFor(nextDir);
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
