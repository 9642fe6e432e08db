import { describe, expect, it } from 'vitest';
import { EDGE_KEY_HEADER, FORM_TOKEN_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER, edgeKeyOf, trustedFormToken, trustedLinkOrigin, trustedVisitorId } from './edge.js';

const SECRET = 'a-cookie-secret-of-at-least-32-characters';
const key = edgeKeyOf(SECRET);
const id = 'AbCdEfGhIjKlMnOpQrStUv';

describe('edge headers', () => {
  it('derives the edge key from the cookie secret without containing it', () => {
    expect(key).toBe(edgeKeyOf(SECRET));
    expect(key).not.toBe(edgeKeyOf(`${SECRET}!`));
    expect(key).not.toContain(SECRET);
  });

  it('believes a visitor id only with the edge key', () => {
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: key, [VISITOR_ID_HEADER]: id }, key)).toBe(id);
    expect(trustedVisitorId({ [VISITOR_ID_HEADER]: id }, key)).toBeUndefined();
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: edgeKeyOf(`${SECRET}!`), [VISITOR_ID_HEADER]: id }, key)).toBeUndefined();
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: key.slice(1), [VISITOR_ID_HEADER]: id }, key)).toBeUndefined();
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: [key, key], [VISITOR_ID_HEADER]: id }, key)).toBeUndefined();
  });

  it('refuses a malformed visitor id even from the edge', () => {
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: key }, key)).toBeUndefined();
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: key, [VISITOR_ID_HEADER]: 'short' }, key)).toBeUndefined();
    expect(trustedVisitorId({ [EDGE_KEY_HEADER]: key, [VISITOR_ID_HEADER]: `${id}; drop` }, key)).toBeUndefined();
  });

  it('believes a link origin only from the edge, and only a plain http(s) origin', () => {
    expect(trustedLinkOrigin({ [EDGE_KEY_HEADER]: key, [LINK_ORIGIN_HEADER]: 'https://khs.example/' }, key)).toBe('https://khs.example');
    expect(trustedLinkOrigin({ [EDGE_KEY_HEADER]: key, [LINK_ORIGIN_HEADER]: 'https://khs.example/site' }, key)).toBe('https://khs.example/site');
    expect(trustedLinkOrigin({ [LINK_ORIGIN_HEADER]: 'https://evil.example' }, key)).toBeUndefined();
    expect(trustedLinkOrigin({ [EDGE_KEY_HEADER]: key, [LINK_ORIGIN_HEADER]: 'javascript:alert(1)' }, key)).toBeUndefined();
    expect(trustedLinkOrigin({ [EDGE_KEY_HEADER]: key, [LINK_ORIGIN_HEADER]: 'https://khs.example/?x=1' }, key)).toBeUndefined();
  });

  it('believes a form token only from the edge, and only a plain token', () => {
    const token = 'J0VlMLqA--XzaTeaaKLmmRnMcsEOg9TzSnVc-aatOTLydsNUb2og';
    expect(trustedFormToken({ [EDGE_KEY_HEADER]: key, [FORM_TOKEN_HEADER]: token }, key)).toBe(token);
    expect(trustedFormToken({ [FORM_TOKEN_HEADER]: token }, key)).toBeUndefined();
    expect(trustedFormToken({ [EDGE_KEY_HEADER]: key, [FORM_TOKEN_HEADER]: '"><script>' }, key)).toBeUndefined();
    expect(trustedFormToken({ [EDGE_KEY_HEADER]: key }, key)).toBeUndefined();
  });
});
