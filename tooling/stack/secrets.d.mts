/** The file in the data folder that keeps generated secrets (`secrets.json`). */
export const SECRETS_FILE_NAME: string;
/** Every secret the stack hands out, by environment variable. */
export const SECRET_NAMES: readonly string[];
/** A fresh random secret (32 bytes, base64url). */
export function generateSecret(): string;
/** Each secret of `names` (default all) from `env`, else from `<dataDir>/secrets.json`, else generated and kept there (mode 0600). */
export function loadStackSecrets(
  dataDir: string,
  env: Record<string, string | undefined>,
  names?: readonly string[],
): { values: Record<string, string>; file: string; fromEnv: string[]; reused: string[]; generated: string[] };
