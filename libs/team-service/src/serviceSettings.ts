import { readEnvInteger } from '@khs/env-integer';
import path from 'node:path';
import { developmentEdgeKey, isLoopbackHost, MIN_EDGE_KEY_LENGTH } from './edge.js';

/** Which service reads its settings: its registry entry (`@khs/stack/registry` `TEAM_SERVICES`). */
export interface ServiceIdentity {
  name: string;
  /** Its port when `PORT` is unset. */
  defaultPort: number;
  /** The variable with its edge key, e.g. `SURVEY_EDGE_KEY`. */
  edgeKeyEnv: string;
}

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
  /** The service's own edge key (its `edgeKeyEnv`; default: the public development key of the service). */
  edgeKey: string;
  /** True when the edge key variable is unset and the public development key is used. */
  usesDevelopmentEdgeKey: boolean;
}

/** A setting was malformed; lists every problem at once. */
export class ServiceSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid service configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ServiceSettingsError';
  }
}

/**
 * Reads and validates the settings of `service`; throws `ServiceSettingsError` naming each bad
 * variable. A service never reads `COOKIE_SECRET` (the shell's alone). It refuses to listen beyond
 * loopback (`HOST` not 127.0.0.0/8, ::1 or localhost) without an edge key of its own: the
 * development key is public.
 */
export function readServiceSettings(service: ServiceIdentity, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServiceSettings {
  const problems: string[] = [];
  let port = service.defaultPort;
  try {
    port = readEnvInteger(env, 'PORT', { min: 0, max: 65535 }) ?? service.defaultPort;
  } catch (error) {
    problems.push((error as Error).message);
  }
  const host = env.HOST?.trim() || '127.0.0.1';
  const givenKey = env[service.edgeKeyEnv]?.trim();
  if (givenKey !== undefined && givenKey !== '' && givenKey.length < MIN_EDGE_KEY_LENGTH) problems.push(`${service.edgeKeyEnv} must be at least ${MIN_EDGE_KEY_LENGTH} characters`);
  const edgeKey = givenKey || developmentEdgeKey(service.name);
  const usesDevelopmentEdgeKey = edgeKey === developmentEdgeKey(service.name);
  if (usesDevelopmentEdgeKey && !isLoopbackHost(host)) {
    problems.push(`${service.edgeKeyEnv} must be set to listen on HOST=${host} (not loopback): the development edge key is public, anyone could pass for the shell`);
  }
  if (problems.length > 0) throw new ServiceSettingsError(problems);
  return {
    host,
    port,
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || '.data'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    databaseSchema: env.DATABASE_SCHEMA?.trim() || undefined,
    edgeKey,
    usesDevelopmentEdgeKey,
  };
}
