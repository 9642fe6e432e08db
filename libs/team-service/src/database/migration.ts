/** A schema change, applied once, in version order, inside a transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** A service's migrations for both dialects, side by side so the two schemas stay equivalent. */
export interface ServiceMigrations {
  sqlite: Migration[];
  postgres: Migration[];
}
