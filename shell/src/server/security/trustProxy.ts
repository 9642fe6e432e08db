import proxyAddr from '@fastify/proxy-addr';
/**
 * Which proxies the shell believes about the client (`X-Forwarded-For`, `-Proto`, `-Host`).
 * `false` (the default): none — the socket's peer is the client and the `Host` header is the
 * host. A hop count or a list of proxy addresses/CIDRs turns it on for exactly those proxies.
 */
export type TrustProxySetting = false | number | string[];

/** proxy-addr's named ranges, accepted in the list as they are. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;
const IPV6 = /^[0-9a-f:]*:[0-9a-f:.]*(\/\d{1,3})?$/i;

/**
 * Parses `TRUST_PROXY`: unset, empty or `false` → off; `1`…`10` → that many hops; else a
 * comma-separated list of addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`.
 * `true` (trust anyone) is refused: any client could then forge its address and host.
 */
export function parseTrustProxy(raw: string | undefined): { value: TrustProxySetting; problem?: string } {
  const text = raw?.trim() ?? '';
  if (text === '' || text === 'false') return { value: false };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 10) return { value: hops };
    return { value: false, problem: `TRUST_PROXY must be a hop count from 1 to 10 or a list of proxy addresses, got "${text}"` };
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.filter((entry) => !NAMED_RANGES.has(entry) && !IPV4.test(entry) && !IPV6.test(entry));
  if (bad.length > 0 || entries.length === 0) {
    return {
      value: false,
      problem: `TRUST_PROXY must be false, a hop count or a comma-separated list of proxy addresses/CIDRs (not "true"), got "${text}"`,
    };
  }
  return { value: entries };
}

/** The setting as Fastify's `trustProxy` option (a hop count becomes proxy-addr's hop test). */
export function fastifyTrustProxy(setting: TrustProxySetting): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/**
 * Whether a connection's peer is one of the proxies the setting trusts (what Fastify asks of the
 * nearest hop): never with `false`, always with a hop count, else when the address is in the list.
 */
export function trustedProxyPeer(setting: TrustProxySetting): (address: string | undefined) => boolean {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (address) => address !== undefined;
  const trusted = proxyAddr.compile(setting);
  return (address) => address !== undefined && trusted(address, 0);
}
