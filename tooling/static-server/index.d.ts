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

/** Serves `dir` with CORS as a remote's CDN would; port 0 picks a free port. */
export function serveDirectory(options: { dir: string; host?: string; port?: number }): Promise<ServedDirectory>;
