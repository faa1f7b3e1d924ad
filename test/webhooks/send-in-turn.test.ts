// SendTurns: at most 16 sends in flight per endpoint, the rest started first come, first sent; a send that
// fails (rejects or throws) gives its turn to the next. Each test has turns of its own.
import { describe, expect, it } from 'vitest';
import { SendTurns } from '../../src/webhooks/send-turns.ts';
import { deferred, tick } from '../harness/async.ts';

describe('SendTurns', () => {
  it('runs 16 at once per endpoint; the others start in order as turns free up; endpoints do not share turns', async () => {
    const turns = new SendTurns();
    const started: number[] = [];
    const sends = Array.from({ length: 20 }, () => deferred<string>());
    const results = sends.map((d, i) =>
      turns.send('we_a', () => {
        started.push(i);
        return d.promise;
      }),
    );
    const other = turns.send('we_b', async () => 'b');
    await tick();
    expect(started).toEqual([...Array(16).keys()]);
    expect(await other).toBe('b');

    sends[3]?.resolve('3');
    sends[0]?.resolve('0');
    await tick();
    expect(started.slice(16)).toEqual([16, 17]);
    for (const d of sends) d.resolve('x');
    expect(await Promise.all(results)).toEqual(['0', 'x', 'x', '3', ...Array(16).fill('x')]);
    expect(started).toEqual([...Array(20).keys()]);
  });

  it('a send that rejects or throws answers its caller and gives its turn to the next', async () => {
    const turns = new SendTurns();
    const held = Array.from({ length: 14 }, () => deferred<string>());
    const waiting = held.map((d) => turns.send('we_c', () => d.promise));
    const failed = turns.send('we_c', async () => {
      throw new Error('refused');
    });
    const thrown = turns.send('we_c', () => {
      throw new Error('thrown');
    });
    const last = turns.send('we_c', async () => 'sent');
    await expect(failed).rejects.toThrow('refused');
    await expect(thrown).rejects.toThrow('thrown');
    expect(await last).toBe('sent');
    for (const d of held) d.resolve('x');
    await Promise.all(waiting);
  });
});
