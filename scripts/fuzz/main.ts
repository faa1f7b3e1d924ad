// `npm run fuzz`: the fuzzing of test/contract/fuzz.test.ts with many more requests per operation, a fresh
// seed unless one is given, and a time bound (it stops by itself and reports what it reached).
//   npm run fuzz -- [--seed N] [--seconds 300] [--valid 150] [--invalid 300]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    seconds: { type: 'string', default: '300' },
    valid: { type: 'string', default: '150' },
    invalid: { type: 'string', default: '300' },
  },
});
const seed = values.seed ?? String(Date.now() % 2_147_483_647);
const seconds = Number(values.seconds);
console.log(
  `fuzz: seed ${seed}, ${values.valid} valid + ${values.invalid} invalid requests per operation, at most ${seconds} s` +
    ` (replay with: npm run fuzz -- --seed ${seed})`,
);
const vitest = join(process.cwd(), 'node_modules', '.bin', 'vitest');
const result = spawnSync(vitest, ['run', 'test/contract/fuzz.test.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_SEED: seed,
    FUZZ_VALID: values.valid,
    FUZZ_INVALID: values.invalid,
    FUZZ_SECONDS: String(seconds),
    FUZZ_VERBOSE: '1',
    // One operation may use the whole budget; the deadline, not the test timeout, ends the run.
    FUZZ_OPERATION_TIMEOUT_MS: String((seconds + 60) * 1000),
  },
  // A hard stop well after the deadline, in case something hangs.
  timeout: (seconds + 180) * 1000,
  killSignal: 'SIGTERM',
});
if (result.error) console.error(result.error.message);
process.exit(result.status ?? 1);
