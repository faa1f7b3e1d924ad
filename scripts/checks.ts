// The checks `npm test` runs before the tests (npm run checks): generated/ up to date, translations, the
// contract's lint, biome and the type check. Each is single-threaded and together they took about 3.5 minutes
// of CPU one after the other (spectral ~65 s and tsc ~100 s of it), so they run in two lanes on two cores, the
// type check alone in one; a lane's output is printed when its step ends, with its duration.
//   tsx scripts/checks.ts [--lanes N]
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { lanes: { type: 'string', default: '2' } } });

/** Longest first: the type check, then the spectral-bound contract lint, then the rest in the order of old. */
const STEPS = ['typecheck', 'lint:spec', 'check:generated', 'check:i18n', 'lint'];

function run(script: string): Promise<{ script: string; ok: boolean; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const ok = code === 0;
      process.stdout.write(`${output}${ok ? '✓' : '✗'} npm run ${script} (${seconds.toFixed(1)} s)\n`);
      resolve({ script, ok, seconds });
    });
  });
}

const queue = [...STEPS];
const results: Array<{ script: string; ok: boolean }> = [];
async function lane() {
  for (let script = queue.shift(); script; script = queue.shift()) results.push(await run(script));
}
const started = performance.now();
await Promise.all(Array.from({ length: Math.max(1, Number(values.lanes)) }, lane));
const failed = results.filter((r) => !r.ok).map((r) => r.script);
console.log(
  `${failed.length ? `✗ failed: ${failed.join(', ')}` : '✓ all checks'} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
process.exitCode = failed.length ? 1 : 0;
