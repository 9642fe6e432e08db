import http from 'node:http';
import sirv from 'sirv';

/**
 * Serves `dir` on `host:port` (port 0 = any free port) with CORS, as the CDN of a remote would.
 * Hashed chunks are cached for a year; manifests and entry files are revalidated every time.
 * @returns {Promise<{ url: string, port: number, close(): Promise<void> }>}
 */
export async function serveDirectory({ dir, host = '127.0.0.1', port = 0 }) {
  const assets = sirv(dir, {
    dev: false,
    etag: true,
    gzip: false,
    setHeaders(res, pathname) {
      const hashed = /\.[0-9a-f]{8}\.js$/.test(pathname);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
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
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
