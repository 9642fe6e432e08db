/**
 * The runtime's words when a registration is replaced (`@module-federation/runtime-core`,
 * `RemoteHandler.registerRemote`): `[ Federation Runtime ]: The remote "<name>" is already registered.
 * Please note that overriding it may cause unexpected errors.`
 */
const REPLACED = /^\[ Federation Runtime \]: The remote "([^"]+)" is already registered\./;

/**
 * Runs `register`, a `registerRemotes(…, { force: true })` of the runtime names `names`, without the
 * warning the runtime prints for it. Replacing a registration with `force` is the runtime's
 * supported way (it drops the old build's manifest, entry, instance and module caches), and it
 * warns on every such call by design (module-federation/core #2171: "force … console.warn to tell
 * this action may have risks"), whether or not the caller meant it. The shell means it every time (a
 * deploy, a rollback, a dev rebuild, a build loaded afresh) and takes care of the risk itself (the
 * old build's federation instance is forgotten, its modules disposed after a delay), so the line
 * would only be noise in every deploy's log. Only that message, for those names, during that one
 * synchronous call, is dropped; every other warning passes.
 */
export function withoutReplacementWarning<T>(names: readonly string[], register: () => T, target: Pick<Console, 'warn'> = console): T {
  const warn = target.warn;
  target.warn = (...args: unknown[]) => {
    const replaced = typeof args[0] === 'string' ? REPLACED.exec(args[0])?.[1] : undefined;
    if (replaced === undefined || !names.includes(replaced)) warn.apply(target, args);
  };
  try {
    return register();
  } finally {
    target.warn = warn;
  }
}
