// Log lines: readable (pino-pretty) when standard output is a terminal, JSON for collectors otherwise; LOG_FORMAT
// (pretty|json) forces either. The first `npm start` in a terminal printed raw JSON under its banner.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { logFormat } from '../../src/log.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');

/** One info line of the service's logger in a child process whose standard output is a pipe. */
async function logLine(format: string): Promise<string> {
  const program =
    "import { createLogger } from './src/log.ts'; createLogger('info', process.env.F || undefined).info({ request_id: 'req_1' }, 'shutting down');";
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: root,
    env: { ...process.env, F: format },
  });
  return stdout.trim();
}

describe('log format', () => {
  it('is pretty on a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(logFormat(undefined, { isTTY: true })).toBe('pretty');
    expect(logFormat(undefined, { isTTY: false })).toBe('json');
    expect(logFormat(undefined, {})).toBe('json');
    expect(logFormat('json', { isTTY: true })).toBe('json');
    expect(logFormat('pretty', { isTTY: false })).toBe('pretty');
  });

  it('LOG_FORMAT is read from the environment (empty is unset) and refuses other values', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: '' }).LOG_FORMAT).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT/);
  });

  it('pretty: a readable line with the time, level and message; json: one JSON object', async () => {
    const pretty = await logLine('pretty');
    expect(pretty).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: shutting down\n\s+request_id: "req_1"$/);
    expect(() => JSON.parse(pretty)).toThrow();
    const json = JSON.parse(await logLine('json'));
    expect(json).toMatchObject({ level: 30, msg: 'shutting down', request_id: 'req_1' });
    // Not a terminal, nothing said: JSON.
    expect(JSON.parse(await logLine(''))).toMatchObject({ msg: 'shutting down' });
  }, 60_000);
});
