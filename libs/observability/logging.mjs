// Log lines of every process: pino, one JSON object a line with the part, the level, the message
// and (within a traced request) the trace and span ids; `LOG_FORMAT=pretty` prints them readably
// (`npm start` in a terminal). `LOG_LEVEL` (default `info`) sets the least level written.
import { createRequire } from 'node:module';
import { format } from 'node:util';
import pino from 'pino';
import { activeTraceIds } from './tracing.mjs';

const require = createRequire(import.meta.url);

/** Whether lines are printed for people (`LOG_FORMAT=pretty`) instead of JSON. */
export function prettyLogs(env = process.env) {
  return env.LOG_FORMAT?.trim() === 'pretty';
}

/**
 * A pino logger of `part`. `destination`: where lines go (default stdout, written synchronously so
 * nothing is lost when the process exits).
 */
export function createLogger({ part, level = process.env.LOG_LEVEL?.trim() || 'info', destination, env = process.env }) {
  const options = {
    level,
    base: { part },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // A fresh object each time: pino writes the line's own fields into it.
    mixin: () => activeTraceIds() ?? {},
  };
  if (destination) return pino(options, destination);
  if (prettyLogs(env)) {
    const pretty = require('pino-pretty');
    return pino(options, pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), ignore: 'pid,hostname,part', messageFormat: '[{part}] {msg}', translateTime: 'HH:MM:ss' }));
  }
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

/**
 * Makes `console.log/info/warn/error/debug` of this process write through `logger` (the lines
 * the parts print today become JSON lines with the part, the level and the trace id). An `Error`
 * among the arguments goes in `err` (with its stack). A status line for the stack starter
 * (`{"event":…}`, e.g. `{"event":"listening"}`) is written as it is.
 */
export function routeConsoleToLogger(logger) {
  const write = (level) => (...args) => {
    if (args.length === 1 && typeof args[0] === 'string' && args[0].startsWith('{"event":')) {
      process.stdout.write(`${args[0]}\n`);
      return;
    }
    const error = args.find((arg) => arg instanceof Error);
    const message = format(...args.filter((arg) => arg !== error));
    if (error) logger[level]({ err: error }, message || error.message);
    else logger[level](message);
  };
  console.log = write('info');
  console.info = write('info');
  console.warn = write('warn');
  console.error = write('error');
  console.debug = write('debug');
}

let processLogger;

/**
 * Makes every line this process prints a JSON line of `part` — the first thing a process's entry
 * calls, before it reads its settings: `console.*` through a logger (`routeConsoleToLogger`), Node's
 * own warnings as `warn` lines, and an uncaught exception (or an unhandled
 * rejection no handler takes) logged as one `fatal` line with its stack in `err`, then exit 1 as
 * Node would, instead of Node's plain stack on stderr. Once per process: a later call (the team
 * service kit's `runService` after the service's `main`) returns the first logger.
 */
export function startProcessLogs(part, env = process.env) {
  if (processLogger) return processLogger;
  const logger = createLogger({ part, env });
  processLogger = logger;
  routeConsoleToLogger(logger);
  // Node's own printer of warnings (absent with --no-warnings): one `warn` line each instead.
  const printers = process.listeners('warning');
  if (printers.length > 0) {
    for (const printer of printers) process.off('warning', printer);
    process.on('warning', (warning) => logger.warn({ warning: { name: warning.name, ...(warning.code ? { code: warning.code } : {}) } }, `${warning.name}: ${warning.message}`));
  }
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error }, `${origin === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception'}: ${error?.message ?? String(error)}`);
    process.exit(1);
  });
  return logger;
}

/**
 * The `log` of a process that runs others and prints their lines with its own (`npm start`, the
 * search server's supervisor): a child's JSON line is printed as it is, any other line (the
 * supervisor's own, or a child's that is not JSON: output before its logger started) becomes a
 * JSON line of `logger`. With `LOG_FORMAT=pretty` every line is printed as it is (the children
 * print for people too).
 */
export function childLineRelay(logger, env = process.env) {
  const pretty = prettyLogs(env);
  return (line) => {
    if (pretty || isJsonObjectLine(line)) process.stdout.write(`${line}\n`);
    else logger.info(line);
  };
}

function isJsonObjectLine(line) {
  if (!line.startsWith('{')) return false;
  try {
    const value = JSON.parse(line);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
