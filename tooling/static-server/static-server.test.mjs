import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange, serveDirectory } from './index.mjs';

const BODY = 'abcdefghijklmnopqrstuvwxyz0123456789'; // 36 bytes
let dir;
let origin;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'khs-static-'));
  writeFileSync(path.join(dir, 'chunk.0123abcd.js'), BODY);
  writeFileSync(path.join(dir, 'chunk.0123abcd.js.br'), brotliCompressSync(BODY));
  writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify({ metaData: { buildVersion: '1.0.0+aaaa' } }));
  writeFileSync(path.join(dir, 'deployments.json'), '[]');
  writeFileSync(path.join(dir, 'mf-stats.json'), '{}');
  writeFileSync(path.join(dir, '.deploy.lock'), 'pid');
  mkdirSync(path.join(dir, '.hidden'));
  writeFileSync(path.join(dir, '.hidden', 'file.js'), 'secret');
  mkdirSync(path.join(dir, 'standalone'));
  writeFileSync(path.join(dir, 'standalone', 'index.html'), '<!doctype html><title>standalone</title>');
  origin = await serveDirectory({ dir });
});

afterAll(async () => {
  await origin.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request (fetch would normalise methods and headers). */
function request(method, pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin.url}${pathname}`, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Range (RFC 9110 §14)', () => {
  it('a suffix range answers the last bytes', async () => {
    const res = await request('GET', '/chunk.0123abcd.js', { range: 'bytes=-5' });
    expect(res.status).toBe(206);
    expect(res.body).toBe('56789');
    expect(res.headers['content-range']).toBe('bytes 31-35/36');
  });

  it('a range answers exactly those bytes, an open or oversized end up to the last byte', async () => {
    expect((await request('GET', '/chunk.0123abcd.js', { range: 'bytes=2-4' })).body).toBe('cde');
    const open = await request('GET', '/chunk.0123abcd.js', { range: 'bytes=30-' });
    expect([open.status, open.body, open.headers['content-range']]).toEqual([206, '456789', 'bytes 30-35/36']);
    const huge = await request('GET', '/chunk.0123abcd.js', { range: 'bytes=0-18446744073709551615' });
    expect([huge.status, huge.body, huge.headers['content-range']]).toEqual([206, BODY, 'bytes 0-35/36']);
  });

  it.each(['bytes=20-10', 'bytes=100-1', 'bytes=50-10', 'bytes=36-', 'bytes=100-200', 'bytes=-0', 'bytes=x-y', 'bytes='])('%s is unsatisfiable: 416 with bytes */len', async (range) => {
    const res = await request('GET', '/chunk.0123abcd.js', { range });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */36');
  });

  it('the server keeps answering after unsatisfiable ranges', async () => {
    await request('GET', '/chunk.0123abcd.js', { range: 'bytes=20-10' }).catch(() => undefined);
    await request('GET', '/chunk.0123abcd.js', { range: 'bytes=0-18446744073709551615' }).catch(() => undefined);
    expect((await request('GET', '/chunk.0123abcd.js')).body).toBe(BODY);
  });

  it('several ranges, another unit, HEAD or a stale If-Range get the whole file', async () => {
    const multi = await request('GET', '/chunk.0123abcd.js', { range: 'bytes=0-1,5-6' });
    expect([multi.status, multi.body]).toEqual([200, BODY]);
    expect((await request('GET', '/chunk.0123abcd.js', { range: 'items=0-1' })).status).toBe(200);
    const head = await request('HEAD', '/chunk.0123abcd.js', { range: 'bytes=0-1' });
    expect([head.status, head.headers['content-length']]).toEqual([200, '36']);
    const stale = await request('GET', '/chunk.0123abcd.js', { range: 'bytes=0-1', 'if-range': '"another"' });
    expect([stale.status, stale.body]).toEqual([200, BODY]);
  });

  it('ranges apply to the precompressed copy that is sent', async () => {
    const whole = Buffer.from(brotliCompressSync(BODY));
    const res = await request('GET', '/chunk.0123abcd.js', { range: 'bytes=0-', 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-range']).toBe(`bytes 0-${whole.length - 1}/${whole.length}`);
  });

  it('parseRange decides each case', () => {
    expect(parseRange('bytes=-5', 36)).toEqual({ start: 31, end: 35 });
    expect(parseRange('bytes=-100', 36)).toEqual({ start: 0, end: 35 });
    expect(parseRange('bytes=100-1', 36)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1, 3-4', 36)).toBeUndefined();
    expect(parseRange('lines=1-2', 36)).toBeUndefined();
  });
});

describe('methods and what is served', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s gets 405 with Allow: GET, HEAD', async (method) => {
    const res = await request(method, '/chunk.0123abcd.js');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).not.toContain(BODY);
  });

  it.each(['/deployments.json', '/mf-stats.json', '/mf-stats.json.br', '/.deploy.lock', '/.hidden/file.js', '/%2e%2e/etc/passwd', '/a%00b'])('%s is not served (404)', async (pathname) => {
    expect((await request('GET', pathname)).status).toBe(404);
  });

  it('serves files with their caching: hashed immutable, the manifest revalidated (304 on its ETag), a folder its index', async () => {
    const chunk = await request('GET', '/chunk.0123abcd.js', { 'accept-encoding': 'gzip, br' });
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers.vary).toBe('Accept-Encoding');
    expect(chunk.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await request('GET', '/chunk.0123abcd.js', { 'if-none-match': chunk.headers.etag, 'accept-encoding': 'gzip, br' })).status).toBe(304);
    const manifest = await request('GET', '/mf-manifest.json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect((await request('GET', '/mf-manifest.json', { 'if-none-match': manifest.headers.etag })).status).toBe(304);
    expect((await request('GET', '/standalone/')).body).toContain('standalone');
  });
});

describe('metrics', () => {
  it('answer /metrics only to the operators token, with requests counted by the kind of file, never its name', async () => {
    const guarded = await serveDirectory({ dir, metricsToken: 'origin-operator-token' });
    try {
      await fetch(`${guarded.url}/chunk.0123abcd.js`);
      await fetch(`${guarded.url}/mf-manifest.json`);
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer origin-operator-token' } });
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toMatch(/http_requests_total\{route="\/\*",method="GET",status_code="200"/);
      expect(text).toMatch(/http_requests_total\{route="\/mf-manifest.json",method="GET",status_code="200"/);
      expect(text).not.toMatch(/chunk\.0123abcd/);
    } finally {
      await guarded.close();
    }
  });

  it('has no /metrics without a token (a 404 as any missing file)', async () => {
    const open = await serveDirectory({ dir, metricsToken: undefined });
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(404);
    } finally {
      await open.close();
    }
  });
});
