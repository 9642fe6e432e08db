/**
 * The edge's limits on request bodies and connections, in one place (documented in
 * `shell/README.md`, "Edge limits"; tests read the same numbers). Server policy, not contracts.
 */

// The largest body of each team service's call is the service's own, declared in its edge policy
// (`proxy/edgePolicy.ts`, `bodyLimitBytes`): the service enforces the same number.

/**
 * A request body must have arrived completely within this long after its headers (ms), else 408
 * JSON and the connection is closed. The largest body that needs it (256 KiB) takes under 6 s on a
 * 400 kbit/s line.
 */
export const REQUEST_BODY_TIMEOUT_MS = 10_000;

// A form page's upload has its own deadline, declared by its service (`uploadTimeoutMs`, edge policy).

/**
 * After a refusal sent while the body was still coming, the edge reads and drops what the client
 * still sends for at most this long (ms) or this many bytes before it closes the connection
 * ("lingering close", as nginx's `lingering_time`): a socket closed while bytes still arrive
 * answers them with a reset, and the client's system then drops the refusal it had not yet read.
 */
export const LINGERING_CLOSE_MS = 5_000;
export const LINGERING_CLOSE_BYTES = 1024 * 1024;

/** The HTTP server's own bound on a whole request (Node's `requestTimeout`): the backstop behind the two above. */
export const SERVER_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Requests one client address may have in flight per team service at the edge, from its headers
 * until its answer is sent (body reading included); more get 429 JSON at once. A page sends a few
 * calls at a time (browsers open at most 6 connections per origin), so only a client holding many
 * requests open meets it; it keeps one address from holding the service's connections.
 */
export const PROXY_IN_FLIGHT_PER_ADDRESS = 8;

// A form page's posts in flight per address and connections per instance are declared by its
// service (`inFlightPerAddress`, `connectionsPerUpstream`, edge policy): its posts are streamed.

/**
 * Connections the proxy keeps to each instance of a team service (undici pool). Only complete
 * bodies are forwarded (they are read at the edge first), and an answer must come within
 * `SERVICE_TIMEOUT_MS`, so a connection is never held by a slow client, nor for longer than that.
 */
export const PROXY_CONNECTIONS_PER_UPSTREAM = 64;

