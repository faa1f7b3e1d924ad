// The checks `npm test` runs beside the tests (npm run checks): generated/ up to date, translations, the
// contract's lint, biome and the type check. Each is single-threaded, so they run in two lanes on two cores, the
// type check (about two thirds of their CPU) alone in one; a step's output is printed when it ends, with its
// duration.
//   tsx scripts/checks.ts [--lanes N] [--tests [-- VITEST ARGS]]
// --tests (npm test): `vitest run` starts at once beside the checks, which run at a lower priority. Before the
// tests, the checks left a core idle for most of their 97 s (tsc's lane is twice the other); beside them they
// take what CPU the tests leave (waits on PostgreSQL, child processes, timers), and at worst the type check ends
// after the tests, alone, still sooner than all the checks did. A failed check's output is printed after the
// tests, where it is seen; a failing check or test fails the whole.
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { lanes: { type: 'string', default: '2' }, tests: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const withTests = values.tests;

/** Longest first: the type check, then the spectral-bound contract lint, then the rest in the order of old. */
const STEPS = ['typecheck', 'lint:spec', 'check:generated', 'check:i18n', 'lint'];

type Result = { script: string; ok: boolean; line: string; report: string };

/** Waits for a child's end: true when it exited with 0. */
const succeeded = (child: ChildProcess) =>
  new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });

async function run(script: string): Promise<Result> {
  const started = performance.now();
  const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Beside the tests the checks yield the CPU to them (their processes inherit this from npm).
  if (withTests && child.pid !== undefined) setPriority(child.pid, constants.priority.PRIORITY_BELOW_NORMAL);
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const ok = await succeeded(child);
  const line = `${ok ? '✓' : '✗'} npm run ${script} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`;
  if (withTests) process.stdout.write(`[checks] ${ok ? line : line.replace('\n', ': its output follows the tests\n')}`);
  else process.stdout.write(`${output}${line}`);
  return { script, ok, line, report: `${output}${line}` };
}

const queue = [...STEPS];
const results: Result[] = [];
async function lane() {
  for (let script = queue.shift(); script; script = queue.shift()) results.push(await run(script));
}
const started = performance.now();
const tests = withTests
  ? succeeded(spawn('npx', ['vitest', 'run', ...positionals], { stdio: 'inherit' }))
  : Promise.resolve(true);
await Promise.all(Array.from({ length: Math.max(1, Number(values.lanes)) }, lane));
const testsOk = await tests;
// After the tests, the output of a failed check only: the tests' summary stays in sight.
if (withTests) process.stdout.write(`\n${results.map((r) => (r.ok ? r.line : r.report)).join('')}`);
const failed = results.filter((r) => !r.ok).map((r) => r.script);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`${failed.length ? `✗ failed: ${failed.join(', ')}` : '✓ all checks'} (${seconds} s)`);
if (withTests) console.log(testsOk ? '✓ the tests (vitest run, above)' : '✗ failed: the tests (vitest run, above)');
process.exitCode = failed.length || !testsOk ? 1 : 0;
