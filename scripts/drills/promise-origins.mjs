// Where an unhandled rejection's promise was made (issue 38, point 19). A rejection's own stack says where its
// error was made, which for a database error is the driver's socket code (and postgres.js appends the stack of the
// first query it rejected to the shared error); this says which code created the promise nobody awaited.
// Costly (a stack for every promise): for drills only, preloaded into a service process:
//
//   NODE_OPTIONS="--import $PWD/scripts/drills/promise-origins.mjs" PROMISE_ORIGINS_LOG=/tmp/origins.log npm run worker
//
// Each unhandled rejection appends its reason and its promise's creation stack to PROMISE_ORIGINS_LOG (stderr when
// unset). It only logs: the service's own handler decides what happens next.
import { createHook } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';

Error.stackTraceLimit = 15;
const origins = new WeakMap();
createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    // The Error, not its stack: V8 formats a stack only when it is read, and most promises never reject.
    if (type === 'PROMISE') origins.set(resource, new Error('promise created'));
  },
}).enable();

process.on('unhandledRejection', (reason, promise) => {
  const text = [
    `--- unhandled rejection at ${new Date().toISOString()} in process ${process.pid} (${process.argv.slice(2).join(' ')})`,
    `reason: ${reason instanceof Error ? reason.stack : String(reason)}`,
    `code: ${reason && typeof reason === 'object' && 'code' in reason ? String(reason.code) : '-'}`,
    `origin: ${origins.get(promise)?.stack ?? 'unknown (made before the hook)'}`,
    '',
  ].join('\n');
  if (process.env.PROMISE_ORIGINS_LOG) appendFileSync(process.env.PROMISE_ORIGINS_LOG, text);
  else process.stderr.write(text);
});
