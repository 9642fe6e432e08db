import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLinkOriginResolver, normalizePublicBaseUrl, parseAllowedHosts } from './linkOrigin.js';
import { fastifyTrustProxy, parseTrustProxy } from './trustProxy.js';

const request = (host: string, protocol: 'http' | 'https' = 'http') => ({ host, protocol }) as FastifyRequest;

describe('link origin', () => {
  it('uses the public base URL for any host that is not allowed', () => {
    const resolve = createLinkOriginResolver({ publicBaseUrl: 'https://khs.example/', allowedHosts: ['www.khs.example'] });
    expect(resolve(request('evil.example'))).toBe('https://khs.example');
    expect(resolve(request('khs.example.evil.example'))).toBe('https://khs.example');
    expect(resolve(request('www.khs.example:8080'))).toBe('https://khs.example');
  });

  it('uses an allowed host as the request reached it', () => {
    const resolve = createLinkOriginResolver({ publicBaseUrl: 'https://khs.example', allowedHosts: ['www.khs.example', 'khs.local:4300'] });
    expect(resolve(request('WWW.KHS.example', 'https'))).toBe('https://www.khs.example');
    expect(resolve(request('khs.local:4300'))).toBe('http://khs.local:4300');
  });

  it('reads a late-known base URL (the listening address) when asked', () => {
    let listening = '';
    const resolve = createLinkOriginResolver({ publicBaseUrl: () => listening });
    listening = 'http://127.0.0.1:4300/';
    expect(resolve(request('evil.example'))).toBe('http://127.0.0.1:4300');
  });

  it('validates PUBLIC_BASE_URL and ALLOWED_HOSTS', () => {
    expect(normalizePublicBaseUrl('https://khs.example/base/')).toEqual({ url: 'https://khs.example/base' });
    for (const bad of ['ftp://khs.example', 'https://khs.example/?q=1', 'https://user:pw@khs.example', 'khs.example']) {
      expect(normalizePublicBaseUrl(bad).problem, bad).toMatch(/PUBLIC_BASE_URL/);
    }
    expect(parseAllowedHosts(' www.khs.example, KHS.local:4300 ,')).toEqual({ hosts: ['www.khs.example', 'khs.local:4300'] });
    expect(parseAllowedHosts('evil.example/path').problem).toMatch(/ALLOWED_HOSTS/);
    expect(parseAllowedHosts('*').problem).toMatch(/ALLOWED_HOSTS/);
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless configured, and never "trust everyone"', () => {
    expect(parseTrustProxy(undefined)).toEqual({ value: false });
    expect(parseTrustProxy('false')).toEqual({ value: false });
    expect(parseTrustProxy('true').problem).toMatch(/TRUST_PROXY/);
    expect(parseTrustProxy('0').problem).toMatch(/TRUST_PROXY/);
  });

  it('takes a hop count or a list of addresses, CIDRs and named ranges', () => {
    expect(parseTrustProxy('2')).toEqual({ value: 2 });
    expect(parseTrustProxy('loopback, 10.0.0.0/8, fd00::/8')).toEqual({ value: ['loopback', '10.0.0.0/8', 'fd00::/8'] });
    expect(parseTrustProxy('proxy.internal').problem).toMatch(/TRUST_PROXY/);
    const hops = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
  });
});
