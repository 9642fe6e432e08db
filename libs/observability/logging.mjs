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
