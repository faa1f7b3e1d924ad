// The coalescer on its own (no database): concurrent calls of a group share one `run`, calls made while a
// batch runs wait for the next batch (which starts as soon as the running one ends), batches hold at most
// `maxBatch` items, groups do not wait for each other, and a failed batch rejects exactly its own calls.
import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/webhooks/coalescer.ts';
import { type Deferred, deferred, tick } from '../harness/async.ts';

/**
 * A `run` that records every call and answers only when the test says so (`answer`), with the items times 10
 * unless told otherwise.
 */
function controlled() {
  const calls: { group: string; items: number[]; done: Deferred<number[]> }[] = [];
  const run = (group: string, items: number[]) => {
    const done = deferred<number[]>();
    calls.push({ group, items, done });
    return done.promise;
  };
  const answer = (k: number, results?: number[]) => {
    const call = calls[k];
    if (!call) throw new Error(`run was called ${calls.length} times, not ${k + 1}`);
    call.done.resolve(results ?? call.items.map((i) => i * 10));
  };
  const fail = (k: number, error: unknown) => {
    const call = calls[k];
    if (!call) throw new Error(`run was called ${calls.length} times, not ${k + 1}`);
    call.done.reject(error);
  };
  return { calls, run, answer, fail };
}

/** Whether a promise has settled yet (checked after letting pending callbacks run). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await tick();
  return done;
}

describe('batching', () => {
  it('calls made in the same turn share one run, started on the next turn, each getting its own result', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const results = [coalescer.add('g', 1), coalescer.add('g', 2), coalescer.add('g', 3)];
    // Not yet: the batch starts on the next turn of the event loop, so that the calls of this turn join it.
    expect(c.calls).toHaveLength(0);
    await tick();
    expect(c.calls.map(({ group, items }) => ({ group, items }))).toEqual([{ group: 'g', items: [1, 2, 3] }]);
    c.answer(0);
    expect(await Promise.all(results)).toEqual([10, 20, 30]);
    expect(c.calls).toHaveLength(1);
  });

  it('a lone call runs alone and waits for nothing but the next turn', async () => {
    const coalescer = new Coalescer(async (_group, items: number[]) => items.map((i) => i + 1));
    // Its answer comes before a 1 ms timer set with it: the next turn runs before any timer, however busy the machine.
    const order: string[] = [];
    const aTimer = new Promise<void>((r) => setTimeout(() => r(void order.push('timer')), 1));
    const answer = coalescer.add('g', 41).then((value) => {
      order.push('answer');
      return value;
    });
    expect(await answer).toBe(42);
    await aTimer;
    expect(order).toEqual(['answer', 'timer']);
  });

  it('a call made while a batch runs goes into the next batch, which starts as soon as that one ends', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const first = coalescer.add('g', 1);
    await tick();
    expect(c.calls).toHaveLength(1);

    // Made while batch 1 runs: they wait for it, however many turns go by.
    const second = coalescer.add('g', 2);
    const third = coalescer.add('g', 3);
    for (let i = 0; i < 5; i++) await tick();
    expect(c.calls).toHaveLength(1);
    expect(await settled(second)).toBe(false);

    c.answer(0);
    expect(await first).toBe(10);
    // The next batch starts on the very next turn after batch 1 ended: no timer, no further wait.
    await tick();
    expect(c.calls.map((call) => call.items)).toEqual([[1], [2, 3]]);
    c.answer(1);
    expect(await Promise.all([second, third])).toEqual([20, 30]);
    expect(c.calls).toHaveLength(2);
  });

  it('the next batch starts right after a slow batch, not later (real time)', async () => {
    const starts: number[] = [];
    const order: string[] = [];
    const coalescer = new Coalescer(async (_group, items: number[]) => {
      starts.push(Date.now());
      order.push(`batch ${items.join()}`);
      await new Promise((r) => setTimeout(r, 100));
      return items;
    });
    const first = coalescer.add('g', 1);
    await new Promise((r) => setTimeout(r, 20));
    const second = coalescer.add('g', 2);
    // A timer set as batch 1 ends: the next batch starts before it fires, however busy the machine (a timer is never
    // early), so no wait of the coalescer's own comes between the batches.
    const aTimerLater = first.then(() => new Promise<void>((r) => setTimeout(() => r(void order.push('timer')), 0)));
    await Promise.all([second, aTimerLater]);
    expect(starts).toHaveLength(2);
    // Batch 2 did not start before batch 1 ended (one at a time per group)...
    expect(starts[1]).toBeGreaterThanOrEqual(starts[0] + 95);
    // ...and started before the timer set when it ended.
    expect(order).toEqual(['batch 1', 'batch 2', 'timer']);
  });

  it('a run that releases its group lets the next batch start before it ends; ending releases nothing twice', async () => {
    const releases: (() => void)[] = [];
    const done: Deferred<number[]>[] = [];
    const batches: number[][] = [];
    const coalescer = new Coalescer((_group, items: number[], release) => {
      batches.push(items);
      releases.push(release);
      const d = deferred<number[]>();
      done.push(d);
      return d.promise;
    });
    const first = coalescer.add('g', 1);
    await tick();
    const second = coalescer.add('g', 2);
    await tick();
    // Without a release batch 2 waits for batch 1…
    expect(batches).toEqual([[1]]);
    releases[0]?.();
    await tick();
    // …with it, batch 2 starts while batch 1 still runs.
    expect(batches).toEqual([[1], [2]]);
    const third = coalescer.add('g', 3);
    await tick();
    // Batch 1 ending (or releasing again) does not start batch 3 beside batch 2, which has not released.
    releases[0]?.();
    done[0]?.resolve([10]);
    expect(await first).toBe(10);
    await tick();
    expect(batches).toEqual([[1], [2]]);
    done[1]?.resolve([20]);
    expect(await second).toBe(20);
    await tick();
    expect(batches).toEqual([[1], [2], [3]]);
    done[2]?.resolve([30]);
    expect(await third).toBe(30);
  });

  it('maxBatch splits: at most that many items per run, in the order they were added', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run, 2);
    const results = [1, 2, 3, 4, 5].map((i) => coalescer.add('g', i));
    await tick();
    expect(c.calls.map((call) => call.items)).toEqual([[1, 2]]);
    c.answer(0);
    await Promise.all(results.slice(0, 2));
    await tick();
    expect(c.calls.map((call) => call.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    c.answer(1);
    await Promise.all(results.slice(2, 4));
    await tick();
    expect(c.calls.map((call) => call.items)).toEqual([[1, 2], [3, 4], [5]]);
    c.answer(2);
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(c.calls).toHaveLength(3);
  });

  it('the default maxBatch is 500', async () => {
    const sizes: number[] = [];
    const coalescer = new Coalescer(async (_group, items: number[]) => {
      sizes.push(items.length);
      return items;
    });
    await Promise.all(Array.from({ length: 1201 }, (_, i) => coalescer.add('g', i)));
    expect(sizes).toEqual([500, 500, 201]);
  });
});

describe('groups', () => {
  it('calls of different groups never share a run', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const a = [coalescer.add('a', 1), coalescer.add('a', 2)];
    const b = coalescer.add('b', 3);
    await tick();
    expect(c.calls.map(({ group, items }) => ({ group, items }))).toEqual([
      { group: 'a', items: [1, 2] },
      { group: 'b', items: [3] },
    ]);
    c.answer(1);
    c.answer(0);
    expect(await Promise.all([...a, b])).toEqual([10, 20, 30]);
  });

  it("one group's slow batch delays neither another group's batch nor its next one", async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const slow = coalescer.add('slow', 1);
    await tick();
    expect(c.calls).toHaveLength(1);

    // Group b starts and finishes twice while group slow's batch is still running.
    const b1 = coalescer.add('b', 2);
    await tick();
    expect(c.calls.map((call) => call.group)).toEqual(['slow', 'b']);
    c.answer(1);
    expect(await b1).toBe(20);
    const b2 = coalescer.add('b', 3);
    await tick();
    expect(c.calls.map((call) => call.group)).toEqual(['slow', 'b', 'b']);
    c.answer(2);
    expect(await b2).toBe(30);

    // Meanwhile group slow's later call still waits for its own running batch.
    const slow2 = coalescer.add('slow', 4);
    await tick();
    expect(c.calls).toHaveLength(3);
    expect(await settled(slow)).toBe(false);
    c.answer(0);
    expect(await slow).toBe(10);
    await tick();
    expect(c.calls.map(({ group, items }) => ({ group, items })).at(-1)).toEqual({ group: 'slow', items: [4] });
    c.answer(3);
    expect(await slow2).toBe(40);
  });
});

describe('failures', () => {
  it('an error rejects exactly the calls of that batch; the next batch still runs and succeeds', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const failing = [coalescer.add('g', 1), coalescer.add('g', 2)];
    const outcomes = failing.map((p) =>
      p.then(
        () => 'resolved',
        (error: unknown) => error,
      ),
    );
    await tick();
    const later = coalescer.add('g', 3);
    const other = coalescer.add('h', 4);
    await tick();
    expect(c.calls.map(({ group, items }) => ({ group, items }))).toEqual([
      { group: 'g', items: [1, 2] },
      { group: 'h', items: [4] },
    ]);

    const boom = new Error('statement failed');
    c.fail(0, boom);
    // Both calls of the batch get the error itself (their jobs are retried).
    expect(await Promise.all(outcomes)).toEqual([boom, boom]);
    await tick();
    expect(c.calls.map((call) => call.items)).toEqual([[1, 2], [4], [3]]);
    c.answer(2);
    c.answer(1);
    expect(await later).toBe(30);
    expect(await other).toBe(40);
  });

  it('a run that throws at once (not a rejected promise) rejects its batch too, and the group goes on', async () => {
    let n = 0;
    const boom = new Error('thrown synchronously');
    const coalescer = new Coalescer((_group, items: number[]) => {
      n++;
      if (n === 1) throw boom;
      return Promise.resolve(items);
    });
    await expect(coalescer.add('g', 1)).rejects.toBe(boom);
    expect(await coalescer.add('g', 2)).toBe(2);
  });

  it('too few results reject every call of the batch', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const calls = [coalescer.add('g', 1), coalescer.add('g', 2)];
    const outcomes = calls.map((p) =>
      p.then(
        () => 'resolved',
        (error: unknown) => String(error),
      ),
    );
    await tick();
    c.answer(0, [10]);
    expect(await Promise.all(outcomes)).toEqual(['Error: batch of 2 answered 1', 'Error: batch of 2 answered 1']);
    // The group is not stuck.
    const next = coalescer.add('g', 3);
    await tick();
    c.answer(1);
    expect(await next).toBe(30);
  });

  it('too many results reject every call of the batch', async () => {
    const c = controlled();
    const coalescer = new Coalescer(c.run);
    const call = coalescer.add('g', 1);
    const outcome = call.then(
      () => 'resolved',
      (error: unknown) => String(error),
    );
    await tick();
    c.answer(0, [10, 20]);
    expect(await outcome).toBe('Error: batch of 1 answered 2');
  });
});
