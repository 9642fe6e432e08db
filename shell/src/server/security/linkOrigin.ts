import type { FastifyRequest } from 'fastify';

/**
 * Where absolute links the site hands out (sharing URLs, PDF links) point. Never derived from
 * an arbitrary request: a forged `Host` or `X-Forwarded-Host` must not reach a link.
 */
export interface LinkOriginOptions {
  /**
   * The site's public origin (`PUBLIC_BASE_URL`), e.g. `https://khs.example`; a function when
   * it is known only once the server listens (the development fallback).
   */
  publicBaseUrl: string | (() => string);
  /**
   * Further host names (`ALLOWED_HOSTS`, lower case, with `:port` where not default) the site
   * answers under. A request whose host is one of them gets links on that host (same
   * protocol as the request); any other host gets `publicBaseUrl`.
   */
  allowedHosts?: readonly string[];
}

/** Resolves the origin of a request's absolute links. */
export type LinkOriginResolver = (request: FastifyRequest) => string;

const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** Parses `ALLOWED_HOSTS` (comma-separated `host` or `host:port`), naming bad entries. */
export function parseAllowedHosts(raw: string | undefined): { hosts: string[]; problem?: string } {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  const bad = entries.filter((entry) => !HOST_PATTERN.test(entry));
  if (bad.length > 0) return { hosts: [], problem: `ALLOWED_HOSTS must list host names (host or host:port), got "${bad.join('", "')}"` };
  return { hosts: [...new Set(entries)] };
}

/** `PUBLIC_BASE_URL` without trailing slashes; an error message when it is not an http(s) origin (with optional path). */
export function normalizePublicBaseUrl(raw: string): { url: string; problem?: string } {
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    if (parsed.search || parsed.hash || parsed.username || parsed.password) throw new Error('extras');
    return { url: `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '') };
  } catch {
    return { url: raw, problem: `PUBLIC_BASE_URL must be an http(s) URL without query, fragment or credentials, got "${raw}"` };
  }
}

/**
 * The link origin of a request: its own host when that host is allowed, else the public base
 * URL. `request.host` is the `Host` header, or `X-Forwarded-Host` only when the app trusts the
 * proxy that sent it (`TRUST_PROXY`), and the shell refuses requests with two `Host` headers.
 */
export function createLinkOriginResolver(options: LinkOriginOptions): LinkOriginResolver {
  const allowed = new Set(options.allowedHosts ?? []);
  const base = options.publicBaseUrl;
  const fallback = typeof base === 'function' ? () => base().replace(/\/+$/, '') : () => base.replace(/\/+$/, '');
  return (request) => {
    const host = request.host.toLowerCase();
    if (allowed.size > 0 && allowed.has(host)) return `${request.protocol}://${host}`;
    return fallback();
  };
}
