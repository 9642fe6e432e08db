// A team's commands, run in a checkout (a throwaway copy, `throwawayCheckout.ts`): `npm run <script>
// -w <workspace>` (a build, a deploy) and the site as `npm start -- --no-build --free-ports` starts it
// (scripts/start.mjs: what is live in each deploy target of the copy's `.origins`, every part on a
// free port), each with this process's Node. For tests that change a checkout the way a team would
// (a slice added, a manifest edited) and look at the site that comes of it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { EXIT_WITH_PARENT } from '@khs/stack/supervisor';

/** This process's environment with its Node first on PATH (npm and its scripts run with it), and none of a site's own settings. */
function commandEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
  for (const name of Object.keys(env)) if (name === 'PORT' || name === 'DATA_DIR' || name === 'ORIGINS_DIR' || /^REMOTE_|_SERVICE_URL$|_EDGE_KEY$/.test(name)) delete env[name];
  return env;
}

/** Runs `npm <args>` in `root`; returns its output, throws with it when the command fails. */
export function npmIn(root: string, args: readonly string[]): string {
  try {
    return execFileSync('npm', args, { cwd: root, env: commandEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(' ')} failed in ${root}: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`.slice(-8000));
  }
}

/** Runs `git <args>` in `root`; returns its output. */
export function gitIn(root: string, args: readonly string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes `root` a git repository whose one commit holds every file git does not ignore: `git status` then tells what a test changed. */
export function commitAll(root: string): void {
  gitIn(root, ['init', '-q']);
  gitIn(root, ['add', '-A']);
  gitIn(root, ['-c', 'user.name=e2e', '-c', 'user.email=e2e@localhost', 'commit', '-q', '--no-verify', '-m', 'the checkout as copied']);
}

export interface CheckoutSite {
  /** The shell's URL, with a trailing slash. */
  url: string;
  /** Everything the site printed (for a failure message). */
  output(): string;
  /** SIGTERM (the starter stops every part), SIGKILL after 30 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the site of the checkout at `root` as `npm start -- --no-build --free-ports` does
 * (`node scripts/start.mjs`), its data in the copy's `.data`, with `env` added (every part reads
 * it, as `npm start` passes its own environment on); resolves once it prints that it
 * listens (default bound 10 minutes: a start of every part on a busy machine has taken over 4). It
 * ends with this process (the stack's own preload), however this one ends.
 */
export async function startCheckoutSite(root: string, env: Record<string, string> = {}, startTimeoutMs = 600_000): Promise<CheckoutSite> {
  const child: ChildProcess = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, path.join(root, 'scripts/start.mjs'), '--no-build', '--free-ports'], {
    cwd: root,
    env: { ...commandEnv(), LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    }
  };
  const listening = new Promise<string>((resolve, reject) => {
    const onLine = (line: string) => {
      output = (output + line + '\n').slice(-200_000);
      if (!line.startsWith('{"event":"listening"')) return;
      // The starter's own line (with every part's pid), not one of a part's.
      const event = JSON.parse(line) as { url?: string; pids?: unknown };
      if (event.url && event.pids) resolve(event.url);
    };
    readline.createInterface({ input: child.stdout! }).on('line', onLine);
    readline.createInterface({ input: child.stderr! }).on('line', onLine);
    void exited.then(() => reject(new Error(`the site exited before it listened:\n${output.slice(-8000)}`)));
    setTimeout(() => reject(new Error(`the site did not listen within ${startTimeoutMs} ms:\n${output.slice(-8000)}`)), startTimeoutMs).unref();
  });
  try {
    const url = await listening;
    return { url: url.endsWith('/') ? url : `${url}/`, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
