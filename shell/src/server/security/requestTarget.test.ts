// Absolute-form request targets over a real socket (no client library sends them): the site's own
// hosts are served like the origin-form, any other host is refused.
import type net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/buildTestApp.js';
import { rawExchange } from '../testing/rawExchange.js';
import { FOREIGN_TARGET_CODE } from './requestTarget.js';

describe('absolute-form request targets', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    ({ app } = await buildTestApp({ env: { PUBLIC_BASE_URL: 'https://khs.example', ALLOWED_HOSTS: 'intranet.khs.example:8443' } }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });
  const get = (target: string) => rawExchange(port, [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`].join('\r\n'));

  it("serves a target on the request's Host, PUBLIC_BASE_URL's host or an allowed host as its origin-form", async () => {
    const origin = await get('/actions/blitz/csrf/token');
    const answers = await Promise.all([`http://127.0.0.1:${port}/actions/blitz/csrf/token`, 'https://KHS.example/actions/blitz/csrf/token', 'http://intranet.khs.example:8443/actions/blitz/csrf/token'].map(get));
    expect(origin.status).toBe(200);
    expect(answers.map((answer) => [answer.status, answer.headers['content-type']])).toEqual(answers.map(() => [200, origin.headers['content-type']]));
    // Routing saw the origin-form: an unknown path is the site's own 404.
    expect((await get(`http://127.0.0.1:${port}/no/such/page`)).status).toBe(404);
  });

  it('refuses another host, another scheme or userinfo with 400 JSON, closing the connection', async () => {
    const targets = ['http://evil.example/actions/blitz/csrf/token', 'http://evil.example/', `ftp://127.0.0.1:${port}/actions/blitz/csrf/token`, `http://user@127.0.0.1:${port}/actions/blitz/csrf/token`, 'http:///actions/blitz/csrf/token'];
    const answers = await Promise.all(targets.map(get));
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).code, answer.headers.connection])).toEqual(targets.map(() => [400, FOREIGN_TARGET_CODE, 'close']));
  });
});
