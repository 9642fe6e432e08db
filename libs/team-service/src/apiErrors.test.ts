import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { apiErrorOf, jsonClientErrorHandler } from './apiErrors.js';

describe('the one API error shape', () => {
  it('keeps a named error\'s code, gives the others one from their status, and tells nothing of a 5xx', () => {
    expect(apiErrorOf({ statusCode: 429, code: 'rate-limited', message: 'Too many' })).toEqual({ status: 429, body: { error: 'Too many', code: 'rate-limited' } });
    expect(apiErrorOf({ statusCode: 404, message: 'Unknown survey' })).toEqual({ status: 404, body: { error: 'Unknown survey', code: 'not-found' } });
    expect(apiErrorOf({ statusCode: 422, message: 'Bad position' })).toEqual({ status: 422, body: { error: 'Bad position', code: 'unprocessable' } });
    expect(apiErrorOf({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:5432' })).toEqual({ status: 500, body: { error: 'Internal server error', code: 'internal-error' } });
  });

  it('answers a request that does not arrive within the server\'s requestTimeout with 408 JSON and closes', async () => {
    // Wired as Fastify wires its `clientErrorHandler`; a short timeout so the test waits little.
    const server = http.createServer({ requestTimeout: 300, connectionsCheckingInterval: 50 }, (request, response) => {
      // Answers once the whole body came (it never does).
      request.resume();
      request.on('end', () => response.end('never'));
    });
    server.on('clientError', jsonClientErrorHandler);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
      socket.write('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly a part');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      await once(socket, 'close');
      const answer = Buffer.concat(chunks).toString('utf8');
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'The request did not arrive in time', code: 'request-timeout' });
    } finally {
      server.close();
    }
  });
});
