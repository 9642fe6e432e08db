/** glibc malloc settings for the server process (a caller's own values win). */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>>;
/** V8 flags of the server process. */
export const SERVER_NODE_FLAGS: readonly string[];
/** The path the server answers without a key: the supervisors' health check. */
export const SERVER_HEALTH_PATH: string;
/** How long a SIGTERM'd server may take to fold its change log before it is killed. */
export const SERVER_STOP_TIMEOUT_MS: number;
