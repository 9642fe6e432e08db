// Request bodies and connections at the edge, over real sockets (the rules live in the socket's
// framing: chunked bodies, trickling bodies, `Connection: close`, several client addresses): what
// the shell answers and what reaches a stand-in team service.
import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_CALL_URLS } from 'contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readShellConfig } from '../config.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { PROXY_IN_FLIGHT_PER_ADDRESS } from '../security/edgeLimits.js';
import { TOO_MANY_IN_FLIGHT_CODE } from '../security/inFlightPerAddress.js';
import { BODY_TIMEOUT_CODE } from '../security/requestBodies.js';
import { FOREIGN_TARGET_CODE } from '../security/requestTarget.js';
import { rawExchange } from '../testing/rawExchange.js';
import { INVALID_TARGET_CODE, serviceProxy } from './serviceProxy.js';
import { teamServiceProxies } from './teamServiceProxies.js';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A stand-in for every team service: records what reaches it; `/api/survey-results/held` waits until released. */
async function startUpstream(seen: Seen[]) {
  const held: Array<() => void> = [];
  const app = Fastify({ forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    seen.push({ url: request.url, headers: request.headers, body: (request.body as string | undefined) ?? '' });
    if (request.url.startsWith('/api/survey-results/held')) await new Promise<void>((resolve) => held.push(resolve));
    return reply.code(request.method === 'POST' ? 201 : 200).header('cache-control', 'no-store').send({ ok: true });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`, releaseHeld: () => held.splice(0).forEach((release) => release()) };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the shell closed the connection after answering. */
  closed: Promise<boolean>;
}

/**
 * One request over its own socket (no agent), from `localAddress`. `body`: the chunks to write, each
 * after `gapMs`; without a `content-length` header they go chunked. Resolves on the answer.
 */
function send(
  origin: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer[]; gapMs?: number; localAddress?: string; agent?: http.Agent },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${options.path}`, { method: options.method ?? 'POST', headers: options.headers, agent: options.agent ?? false, localAddress: options.localAddress });
    // The shell may answer and close before the whole body went out: that is the point of several tests.
    request.on('error', (error: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') ? undefined : reject(error)));
    request.on('response', (response) => {
      const socket = response.socket;
      const closed = new Promise<boolean>((resolveClosed) => {
        if (socket.destroyed) resolveClosed(true);
        socket.once('close', () => resolveClosed(true));
        setTimeout(() => resolveClosed(false), 500).unref();
      });
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), closed }));
    });
    const chunks = options.body ?? [];
    let index = 0;
    const writeNext = () => {
      if (request.destroyed) return;
      if (index === chunks.length) return void request.end();
      request.write(chunks[index++]);
      setTimeout(writeNext, options.gapMs ?? 0);
    };
    writeNext();
  });
}

async function csrfOf(origin: string): Promise<{ cookie: string; token: string }> {
  const response = await fetch(`${origin}${DEFAULT_CALL_URLS.csrfToken}`);
  return { cookie: response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; '), token: await response.text() };
}

const SURVEY_SUBMIT = DEFAULT_CALL_URLS.surveySubmit.replace('{formHandle}', 'coffee');

describe('request bodies at the edge', () => {
  const seen: Seen[] = [];
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let app: FastifyInstance;
  let origin: string;
  let csrf: { cookie: string; token: string };

  beforeAll(async () => {
    upstream = await startUpstream(seen);
    const env = { SURVEY_SERVICE_URL: upstream.url, WATCHLIST_SERVICE_URL: upstream.url, SEARCH_TEAM_SERVICE_URL: upstream.url };
    const config = readShellConfig(env);
    ({ app } = await buildTestApp({ env, features: teamServiceProxies({ config, linkOrigin: () => 'http://localhost' }) }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    csrf = await csrfOf(origin);
  });
  afterAll(async () => {
    upstream.releaseHeld();
    await app?.close();
    await upstream?.app.close();
  });
  afterEach(() => {
    seen.length = 0;
  });

  const withToken = (headers: Record<string, string>) => ({ cookie: csrf.cookie, 'x-csrf-token': csrf.token, ...headers });

  it('refuses a valid gzip body to the watchlist call with 415 JSON at once (Accept-Encoding: identity), forwarding nothing', async () => {
    const gzipped = gzipSync(JSON.stringify({ storedWatchlist: { articles: {} } }));
    const answer = await send(origin, {
      path: DEFAULT_CALL_URLS.watchlist,
      headers: withToken({ 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(gzipped.length) }),
      body: [gzipped],
    });
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('Content-Encoding'), code: 'unsupported-content-encoding' });
    expect(answer.headers['accept-encoding']).toBe('identity');
    expect(seen).toEqual([]);
  });

  it('refuses undecodable br and deflate bodies to the insights call, and any other coding, with 415 at once; identity passes', async () => {
    for (const coding of ['br', 'deflate', 'gzip, br', 'zstd', 'x-made-up']) {
      const answer = await send(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json', 'content-encoding': coding }, body: [Buffer.from('junk')] });
      expect({ coding, status: answer.status, code: JSON.parse(answer.body).code }).toEqual({ coding, status: 415, code: 'unsupported-content-encoding' });
    }
    expect(seen).toEqual([]);
    const identity = await send(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: [Buffer.from('{"events":[]}')] });
    expect(identity.status).toBe(201);
    expect(seen.map(({ body }) => body)).toEqual(['{"events":[]}']);
  });

  it('refuses a chunked body over the edge limit with 413 JSON on every proxied call, forwarding nothing', async () => {
    // Each limit as its service declares it (its edge policy).
    const services = readShellConfig({}).services;
    const limitOf = (service: keyof typeof services, call: string) => services[service].edgePolicy.routes.find((route) => route.call === call)!.bodyLimitBytes!;
    const calls = [
      { path: SURVEY_SUBMIT, limit: limitOf('survey', 'surveySubmit') },
      { path: DEFAULT_CALL_URLS.watchlist, limit: limitOf('watchlist', 'watchlist') },
      { path: DEFAULT_CALL_URLS.download, limit: limitOf('watchlist', 'download') },
      { path: DEFAULT_CALL_URLS.insights, limit: limitOf('search-team', 'insights') },
    ];
    expect(calls.map(({ limit }) => limit)).toEqual([1024, 256 * 1024, 256 * 1024, 128 * 1024]);
    for (const { path, limit } of calls) {
      // No Content-Length: Node sends it chunked, in 16 KiB chunks.
      const chunkCount = Math.ceil((limit + 1) / 16_384) + 1;
      const answer = await send(origin, { path, headers: withToken({ 'content-type': 'application/json' }), body: Array.from({ length: chunkCount }, () => Buffer.alloc(16_384, 'x')) });
      expect({ path, status: answer.status, body: JSON.parse(answer.body) }).toEqual({ path, status: 413, body: { error: expect.any(String), code: 'FST_ERR_CTP_BODY_TOO_LARGE' } });
      expect(await answer.closed).toBe(true);
    }
    expect(seen).toEqual([]);
  });

  it('keeps a 413 for a client that goes on sending and reads it only afterwards: the connection closes once the body ended, with no reset', async () => {
    // The client's reads are paused while it writes 20 chunks of 16 KiB (limit 1 KiB), as a busy
    // client's are: a shell that closed at once would answer the bytes still coming with a reset,
    // and the client's system would drop the unread 413 (run s6c's e2e "closed with no answer").
    const port = (app.server.address() as net.AddressInfo).port;
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<string | undefined>((resolve) => {
      let errorCode: string | undefined;
      socket.on('error', (error: NodeJS.ErrnoException) => (errorCode = error.code));
      socket.on('close', () => resolve(errorCode));
    });
    const head = Object.entries(withToken({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
    socket.write(`POST ${SURVEY_SUBMIT} HTTP/1.1\r\n${head.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);
    const chunk = Buffer.alloc(16_384, 'x');
    for (let index = 0; index < 20; index++) {
      await new Promise((resolve) => socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, resolve));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    socket.write('0\r\n\r\n');
    socket.resume();
    expect(await closed).toBeUndefined();
    const answer = Buffer.concat(received).toString('utf8');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"code":"FST_ERR_CTP_BODY_TOO_LARGE"');
    expect(seen).toEqual([]);
  });

  it('forwards a chunked body within the limit as the bytes that came, with their length and no chunked framing', async () => {
    const parts = ['{"answer', 'Position"', ':1}'];
    const answer = await send(origin, { path: SURVEY_SUBMIT, headers: withToken({ 'content-type': 'application/json' }), body: parts.map((part) => Buffer.from(part)), gapMs: 20 });
    expect(answer.status).toBe(201);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body).toBe(parts.join(''));
    expect(seen[0]!.headers['content-length']).toBe(String(parts.join('').length));
    expect(seen[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('honours the client\'s Connection: close on a proxied answer (the service\'s keep-alive stays behind), and keeps the connection otherwise', async () => {
    const closing = await send(origin, { method: 'GET', path: '/api/survey-results/coffee', headers: { connection: 'close' } });
    expect(closing.status).toBe(200);
    expect(closing.headers.connection).toBe('close');
    expect(closing.headers['keep-alive']).toBeUndefined();
    expect(await closing.closed).toBe(true);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const keeping = await send(origin, { method: 'GET', path: '/api/survey-results/coffee', agent });
      expect(keeping.status).toBe(200);
      expect(keeping.headers.connection).toBe('keep-alive');
      expect(await keeping.closed).toBe(false);
    } finally {
      agent.destroy();
    }
  });

  it(`lets one address have at most ${PROXY_IN_FLIGHT_PER_ADDRESS} requests in flight per service (429 beyond), while other addresses are answered`, async () => {
    const held = Array.from({ length: PROXY_IN_FLIGHT_PER_ADDRESS }, () => send(origin, { method: 'GET', path: '/api/survey-results/held', localAddress: '127.0.0.2' }));
    await expect.poll(() => seen.length).toBe(PROXY_IN_FLIGHT_PER_ADDRESS);
    const refused = await send(origin, { method: 'GET', path: '/api/survey-results/coffee', localAddress: '127.0.0.2' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ error: expect.any(String), code: TOO_MANY_IN_FLIGHT_CODE });
    expect(refused.headers['retry-after']).toBe('1');
    const other = await send(origin, { method: 'GET', path: '/api/survey-results/coffee', localAddress: '127.0.0.3' });
    expect(other.status).toBe(200);
    upstream.releaseHeld();
    expect((await Promise.all(held)).map(({ status }) => status)).toEqual(Array(PROXY_IN_FLIGHT_PER_ADDRESS).fill(200));
    // Answered: the address has its allowance back.
    expect((await send(origin, { method: 'GET', path: '/api/survey-results/coffee', localAddress: '127.0.0.2' })).status).toBe(200);
  });

  const portOf = () => Number(new URL(origin).port);
  const hostOf = () => new URL(origin).host;
  const jsonHead = (method: string, target: string, length: number, extra: string[] = []) =>
    [`${method} ${target} HTTP/1.1`, `Host: ${hostOf()}`, `Cookie: ${csrf.cookie}`, `X-CSRF-Token: ${csrf.token}`, 'Content-Type: application/json', `Content-Length: ${length}`, ...extra].join('\r\n');

  it('answers Expect: 100-continue with 100 Continue, then forwards the body (without Expect) and passes the answer on', async () => {
    const vote = JSON.stringify({ answerPosition: 1 });
    const watchlist = JSON.stringify({ storedWatchlist: { articles: {} } });
    const survey = await rawExchange(portOf(), jsonHead('POST', SURVEY_SUBMIT, Buffer.byteLength(vote), ['Expect: 100-continue']), vote, { awaitContinue: true });
    const saved = await rawExchange(portOf(), jsonHead('POST', DEFAULT_CALL_URLS.watchlist, Buffer.byteLength(watchlist), ['Expect: 100-continue']), watchlist, { awaitContinue: true });
    expect([survey.interim, survey.status, JSON.parse(survey.body)]).toEqual([[100], 201, { ok: true }]);
    expect([saved.interim, saved.status]).toEqual([[100], 201]);
    expect(seen.map(({ url, body, headers }) => [url, body, headers.expect])).toEqual([
      [SURVEY_SUBMIT, vote, undefined],
      [DEFAULT_CALL_URLS.watchlist, watchlist, undefined],
    ]);
  });

  it('serves an absolute-form target for its own host like the origin-form (RFC 9112 3.2.2), forwarding the origin-form', async () => {
    const vote = JSON.stringify({ answerPosition: 1 });
    const posted = await rawExchange(portOf(), jsonHead('POST', `http://${hostOf()}${SURVEY_SUBMIT}`, Buffer.byteLength(vote)), vote);
    const read = await rawExchange(portOf(), [`GET http://${hostOf()}/api/survey-results/coffee?x=1 HTTP/1.1`, `Host: ${hostOf()}`].join('\r\n'));
    expect([posted.status, read.status]).toEqual([201, 200]);
    expect(seen.map(({ url, body }) => [url, body])).toEqual([
      [SURVEY_SUBMIT, vote],
      ['/api/survey-results/coffee?x=1', ''],
    ]);
  });

  it('refuses an absolute-form target for another host with 400 JSON (no forward proxy), forwarding nothing', async () => {
    const vote = JSON.stringify({ answerPosition: 1 });
    const posted = await rawExchange(portOf(), jsonHead('POST', `http://evil.example${SURVEY_SUBMIT}`, Buffer.byteLength(vote)), vote);
    const read = await rawExchange(portOf(), [`GET http://evil.example/api/survey-results/coffee HTTP/1.1`, `Host: ${hostOf()}`].join('\r\n'));
    for (const answer of [posted, read]) {
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([400, FOREIGN_TARGET_CODE]);
    }
    expect(seen).toEqual([]);
  });

  it('refuses a query with an invalid percent-encoding or invalid UTF-8 with 400 JSON on every proxied call, forwarding nothing', async () => {
    const body = JSON.stringify({ storedWatchlist: { articles: {} } });
    const answers = [];
    for (const query of ['q=%E0%A4%A&x=%zz&%=1', 'q=%ff%fe%c3%28&%c0%af=1']) {
      answers.push(await rawExchange(portOf(), [`GET /api/survey-results/coffee?${query} HTTP/1.1`, `Host: ${hostOf()}`].join('\r\n')));
      for (const path of [SURVEY_SUBMIT, DEFAULT_CALL_URLS.watchlist, DEFAULT_CALL_URLS.download, DEFAULT_CALL_URLS.insights]) {
        answers.push(await rawExchange(portOf(), jsonHead('POST', `${path}?${query}`, Buffer.byteLength(body)), body));
      }
    }
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).code])).toEqual(answers.map(() => [400, INVALID_TARGET_CODE]));
    expect(seen).toEqual([]);
  });
});

describe('a body that trickles', () => {
  it('is cut off with 408 JSON after the body timeout, the connection closed, nothing forwarded', async () => {
    const seen: Seen[] = [];
    const upstream = await startUpstream(seen);
    const { app } = await buildTestApp({
      features: [
        {
          plugin: serviceProxy,
          options: {
            service: 'insights',
            upstreams: [upstream.url],
            cookieSecret: 'a-test-secret-a-test-secret-a-test-secret',
            connectTimeoutMs: 1000,
            responseTimeoutMs: 5000,
            bodyTimeoutMs: 300,
            routes: [{ method: 'POST', url: DEFAULT_CALL_URLS.insights, csrfExempt: true }],
          },
        },
      ],
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const origin = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
      // 40 bytes, one every 50 ms: 2 s in all, far past the 300 ms deadline.
      const body = Array.from({ length: 40 }, () => Buffer.from('x'));
      const answer = await send(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json', 'content-length': '40' }, body, gapMs: 50 });
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('0.3 s'), code: BODY_TIMEOUT_CODE });
      expect(await answer.closed).toBe(true);
      expect(seen).toEqual([]);
      // A body that comes in time passes the same route.
      const quick = await send(origin, { path: DEFAULT_CALL_URLS.insights, headers: { 'content-type': 'application/json' }, body: [Buffer.from('{"events":'), Buffer.from('[]}')], gapMs: 20 });
      expect(quick.status).toBe(201);
    } finally {
      await app.close();
      await upstream.app.close();
    }
  });
});
