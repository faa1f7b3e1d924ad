// A worker process outlives a database failure nobody awaited (src/jobs/unawaited-database-failures.ts), and
// still ends on any other unhandled rejection. Each case is a child process that installs the handler and
// leaves one rejection unhandled.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function leaveUnhandled(rejection: string) {
  const script = `
    import { carryOnAfterUnawaitedDatabaseFailures } from './src/jobs/unawaited-database-failures.ts';
    carryOnAfterUnawaitedDatabaseFailures((error) => console.error('logged', error.code));
    Promise.reject(${rejection});
    setTimeout(() => console.log('alive'), 200);`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
  });
}

it('a refused or lost database connection nobody awaited is logged and the process lives on', () => {
  for (const code of ['ECONNREFUSED', 'CONNECTION_CLOSED', '57P01']) {
    const rejection = `Object.assign(new Error('${code}'), { code: '${code}', syscall: 'connect' })`;
    const child = leaveUnhandled(rejection);
    expect(child.stdout, child.stderr).toContain('alive');
    expect(child.stderr).toContain(`logged ${code}`);
    expect(child.status).toBe(0);
  }
});

it('any other unhandled rejection still ends the process: a bug, or a database failure that is not a lost connection', () => {
  for (const rejection of [
    `new Error('a bug')`,
    `Object.assign(new Error('deadlock detected'), { code: '40P01' })`,
    `Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })`,
  ]) {
    const child = leaveUnhandled(rejection);
    expect(child.stdout).not.toContain('alive');
    expect(child.status).not.toBe(0);
  }
});
