import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ServedDirectory {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:4311`. */
  url: string;
  port: number;
  /** Serves another build from now on, as a redeploy to this origin would. */
  serve(dir: string): void;
  close(): Promise<void>;
}

/** Content-hashed build outputs (`name.0123abcd.js|css`), served `immutable`. */
export const HASHED_FILE: RegExp;
/** The methods an origin answers (`Allow` of its 405). */
export const ALLOWED_METHODS: string;

/**
 * Serves `dir` with CORS as a remote's CDN would; port 0 (default) picks a free port, host defaults
 * to `127.0.0.1`. GET and HEAD only, single byte ranges per RFC 9110, no hidden or private files.
 */
export function serveDirectory(options: {
  dir: string;
  host?: string;
  port?: number;
  /** Opens `GET /metrics` (Prometheus) to this token. Default `OPERATOR_TOKEN`; none: `/metrics` is a 404. */
  metricsToken?: string;
}): Promise<ServedDirectory>;

/** A request's route label for the metrics: the kind of file it asks for, never its name. */
export function originRoute(url: string): string;

/** Answers one request for the origin folder `root` (what `serveDirectory`'s server runs). */
export function handleOriginRequest(root: string, req: IncomingMessage, res: ServerResponse): Promise<void>;

/**
 * The one byte range a `Range` header asks of `size` bytes: inclusive `{ start, end }`,
 * `'unsatisfiable'` (answer 416), or undefined (ignore the header: send the whole file).
 */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined;
