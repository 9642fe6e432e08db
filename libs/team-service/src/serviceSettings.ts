import path from 'node:path';
import { DEVELOPMENT_COOKIE_SECRET, edgeKeyOf } from './edge.js';

/** What every team service reads from its environment. */
export interface ServiceSettings {
  /** `HOST`, default `127.0.0.1`: a service is reached through the shell's proxy, not by browsers. */
  host: string;
  /** `PORT`, default: the service's registry port; `0` picks a free one. */
  port: number;
  /** `DATA_DIR`, default `.data`: the service's SQLite file lives here. */
  dataDir: string;
  /** `DATABASE_URL`: PostgreSQL (the service's own schema) instead of the SQLite file. */
  databaseUrl: string | undefined;
  /** `DATABASE_SCHEMA`: the schema in PostgreSQL. Default: the service's name. */
  databaseSchema: string | undefined;
  /** The edge key derived from `COOKIE_SECRET` (the same secret as the shell's). */
  edgeKey: string;
  /** True when `COOKIE_SECRET` is unset and the public development secret is used. */
  usesDevelopmentCookieSecret: boolean;
}

/** A setting was malformed; lists every problem at once. */
export class ServiceSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid service configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ServiceSettingsError';
  }
}

/** Reads and validates the settings; throws `ServiceSettingsError` naming each bad variable. */
export function readServiceSettings(defaultPort: number, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServiceSettings {
  const problems: string[] = [];
  const rawPort = env.PORT?.trim();
  const port = rawPort ? Number(rawPort) : defaultPort;
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be an integer from 0 to 65535, got "${rawPort}"`);
  const cookieSecret = env.COOKIE_SECRET?.trim() || DEVELOPMENT_COOKIE_SECRET;
  if (cookieSecret.length < 32) problems.push('COOKIE_SECRET must be at least 32 characters');
  if (problems.length > 0) throw new ServiceSettingsError(problems);
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port,
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || '.data'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    databaseSchema: env.DATABASE_SCHEMA?.trim() || undefined,
    edgeKey: edgeKeyOf(cookieSecret),
    usesDevelopmentCookieSecret: cookieSecret === DEVELOPMENT_COOKIE_SECRET,
  };
}
