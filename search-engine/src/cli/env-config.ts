/** Default keys for local development (override with env in any shared setup). */
export const DEV_ADMIN_KEY = 'khs-admin-dev-key';
export const DEV_SEARCH_KEY = 'khs-search-dev-key';

/**
 * The Typesense base URL from the environment: `TYPESENSE_URL`, or
 * `TYPESENSE_PROTOCOL`/`TYPESENSE_HOST`/`TYPESENSE_PORT`; otherwise the
 * standalone embedded server's address (`SEARCH_HOST`/`SEARCH_PORT`).
 */
export function typesenseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TYPESENSE_URL) return env.TYPESENSE_URL.replace(/\/+$/, '');
  if (env.TYPESENSE_HOST) {
    const protocol = env.TYPESENSE_PROTOCOL ?? 'http';
    const port = env.TYPESENSE_PORT ?? (protocol === 'https' ? '443' : '8108');
    return `${protocol}://${env.TYPESENSE_HOST}:${port}`;
  }
  return `http://${env.SEARCH_HOST ?? '127.0.0.1'}:${env.SEARCH_PORT ?? '8108'}`;
}
