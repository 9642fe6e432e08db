// What the dev starter (devSite.mjs, `npm run dev -w <remote>`), the shell's dev routes
// (shell/src/server/dev/) and a remote's dev build (tooling/rspack-preset/dev/) agree on. No Node
// imports: the shell and the preset read it too.

/**
 * The shell's dev routes exist only when this variable holds a token (the dev starter sets a fresh
 * one); the rebuild notice must carry it (`Authorization: Bearer <token>`). Never set in production.
 */
export const DEV_LOOP_TOKEN_ENV = 'KHS_DEV_LOOP_TOKEN';

/** Server-sent events of the shell: `rebuilt` with `{ remote, buildVersion, manifestUrl }`, after the shell renders with that build. */
export const DEV_EVENTS_PATH = '/__khs-dev/events';

/** `POST` here (the dev starter): `remote` was rebuilt and deployed to its dev origin; the shell reloads it now. */
export function devRebuiltPath(remote) {
  return `/__khs-dev/remotes/${encodeURIComponent(remote)}/rebuilt`;
}
