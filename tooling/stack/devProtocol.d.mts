/** The shell's dev routes exist only when this variable holds a token; the rebuild notice must carry it. */
export const DEV_LOOP_TOKEN_ENV: 'KHS_DEV_LOOP_TOKEN';
/** Server-sent events of the shell: `rebuilt` with `{ remote, buildVersion }`. */
export const DEV_EVENTS_PATH: '/__khs-dev/events';
/** `POST` here: `remote` was rebuilt and deployed to its dev origin; the shell reloads it now. */
export function devRebuiltPath(remote: string): string;
