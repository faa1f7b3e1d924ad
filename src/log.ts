// The process's logger: pino, as JSON lines for log collectors, or as readable lines (pino-pretty) on a terminal.
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

/** Readable lines when `format` says so, or when it says nothing and standard output is a terminal. */
export function logFormat(format: LogFormat | undefined, stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return format ?? (stdout.isTTY === true ? 'pretty' : 'json');
}

export function createLogger(level: string, format: LogFormat | undefined): Logger {
  if (logFormat(format) === 'json') return pino({ level });
  // Written synchronously, like pino's own destination: the last lines of a stopping process are not lost.
  const stream = pretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
  return pino({ level }, stream);
}
