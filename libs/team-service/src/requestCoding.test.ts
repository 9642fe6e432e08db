import { describe, expect, it } from 'vitest';
import { hasCodedBody, isIdentityCoding } from './requestCoding.js';

describe('request coding', () => {
  it('accepts no coding or identity only, in any case and spacing', () => {
    expect([undefined, '', 'identity', ' Identity ', 'identity, identity'].map(isIdentityCoding)).toEqual([true, true, true, true, true]);
    expect(['gzip', 'br', 'deflate', 'zstd', 'x-gzip', 'identity, gzip', 'made-up'].map(isIdentityCoding)).toEqual(Array(7).fill(false));
    expect(isIdentityCoding(['identity', 'gzip'])).toBe(false);
  });

  it('refuses a coded body only: a coding named on a request without a body is left alone', () => {
    expect(hasCodedBody({ 'content-encoding': 'gzip', 'content-length': '20' })).toBe(true);
    expect(hasCodedBody({ 'content-encoding': 'br', 'transfer-encoding': 'chunked' })).toBe(true);
    expect(hasCodedBody({ 'content-encoding': 'gzip' })).toBe(false);
    expect(hasCodedBody({ 'content-encoding': 'gzip', 'content-length': '0' })).toBe(false);
    expect(hasCodedBody({ 'content-encoding': 'identity', 'content-length': '20' })).toBe(false);
  });
});
