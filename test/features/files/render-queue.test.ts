// PDFs wait in a queue per company, served in turn (src/pdf/fair-queue.ts in front of the rendering threads): a
// company's burst waits behind itself, not in front of another company's single document. Checked by the order in
// which documents are started and finished, never by how long they took.
import { describe, expect, it } from 'vitest';
import type { DocumentPdfView } from '../../../src/pdf/document-view.ts';
import { FairQueue, FairQueueFullError } from '../../../src/pdf/fair-queue.ts';
import { PdfRenderer, PdfRenderLimitError } from '../../../src/pdf/render-pool.ts';

/** A task that ends when the test says so, noting when it started. */
function controlled(started: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: () => {
      started.push(name);
      return done.then(() => name);
    },
    finish: () => finish(),
  };
}

describe('the fair queue', () => {
  it("starts company A's single task right after the running one, before company B's waiting burst", async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 100 });
    const started: string[] = [];
    const burst = ['B1', 'B2', 'B3', 'B4', 'B5'].map((name) => controlled(started, name));
    const a = controlled(started, 'A1');
    const finished: string[] = [];
    const runs = burst.map((b, i) => queue.run('B', b.task).then(() => finished.push(`B${i + 1}`)));
    const runA = queue.run('A', a.task).then(() => finished.push('A1'));
    expect(started).toEqual(['B1']);
    // Each task is ended in the order it was started; the queue decides the next.
    for (let i = 0; i < 6; i++) {
      const next = started[i];
      if (next === 'A1') a.finish();
      else burst[Number(next.slice(1)) - 1]?.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([...runs, runA]);
    expect(started).toEqual(['B1', 'A1', 'B2', 'B3', 'B4', 'B5']);
    expect(finished.indexOf('A1')).toBeLessThan(finished.indexOf('B5'));
  });

  it('serves waiting companies in turn: one task each before anyone gets a second', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 100 });
    const started: string[] = [];
    const tasks = new Map<string, ReturnType<typeof controlled>>();
    const add = (company: string, n: number) => {
      const name = `${company}${n}`;
      const t = controlled(started, name);
      tasks.set(name, t);
      return queue.run(company, t.task);
    };
    const runs = [add('B', 1), add('B', 2), add('B', 3), add('C', 1), add('C', 2), add('A', 1)];
    for (let i = 0; i < 6; i++) {
      tasks.get(started[i])?.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(runs);
    expect(started).toEqual(['B1', 'C1', 'A1', 'B2', 'C2', 'B3']);
  });

  it('refuses a task when the queue is full, and a failing task frees its slot', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 1 });
    const started: string[] = [];
    const first = controlled(started, 'B1');
    const running = queue.run('B', first.task);
    const waiting = queue.run('A', async () => 'A1');
    await expect(queue.run('C', async () => 'C1')).rejects.toBeInstanceOf(FairQueueFullError);
    first.finish();
    expect(await running).toBe('B1');
    expect(await waiting).toBe('A1');
    await expect(queue.run('B', async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await queue.run('B', async () => 'after')).toBe('after');
    expect(queue.running + queue.waiting).toBe(0);
  });

  it('keeps slots for the others: a company runs at most its share, and its waiting tasks beyond a bound are refused', async () => {
    const queue = new FairQueue({ slots: 3, maxWaiting: 100, runningPerCompany: 2, waitingPerCompany: 2 });
    const started: string[] = [];
    const b = ['B1', 'B2', 'B3', 'B4'].map((name) => controlled(started, name));
    const runs = b.map((t) => queue.run('B', t.task));
    // Two of B run; the third slot stays free for another company although B has tasks waiting.
    expect(started).toEqual(['B1', 'B2']);
    expect(queue.waiting).toBe(2);
    const refused = queue.run('B', async () => 'B5');
    await expect(refused).rejects.toMatchObject({ ofCompany: true, waiting: 2 });
    const a = controlled(started, 'A1');
    const runA = queue.run('A', a.task);
    expect(started).toEqual(['B1', 'B2', 'A1']);
    // B's next starts when one of B's own ends, not when A's does.
    a.finish();
    await runA;
    expect(started).toEqual(['B1', 'B2', 'A1']);
    b[0]?.finish();
    await runs[0];
    expect(started).toEqual(['B1', 'B2', 'A1', 'B3']);
    for (const t of b.slice(1)) t.finish();
    await new Promise((resolve) => setImmediate(resolve));
    b[3]?.finish();
    await Promise.all(runs);
    expect(started).toEqual(['B1', 'B2', 'A1', 'B3', 'B4']);
    expect(queue.running + queue.waiting).toBe(0);
  });
});

const view = (number: string): DocumentPdfView => ({
  kind: 'invoice',
  number,
  language: 'en',
  currency: 'EUR',
  issueDate: '2026-03-02',
  company: { name: 'Schildersbedrijf De Kwast' },
  customer: { name: 'Jan Jansen' },
  lines: [
    {
      name: 'Schilderwerk',
      description: 'Two coats. '.repeat(200),
      quantity: '1.00',
      unitPrice: '10.00',
      discount: '0.00',
      taxRate: '21.00',
      total: '10.00',
    },
  ],
  totals: { subtotal: '10.00', taxes: [], total: '10.00' },
});

describe('the rendering threads', () => {
  it("render company A's one PDF before company B's queued burst is done", async () => {
    const renderer = new PdfRenderer({ threads: 1, queue: 10, timeoutMs: 60_000, memoryMb: 512, maxPages: 1000 });
    try {
      const finished: string[] = [];
      const render = (company: string, number: string) =>
        renderer.render(view(number), company).then(() => finished.push(number));
      const burst = ['B-1', 'B-2', 'B-3', 'B-4'].map((number) => render('company-b', number));
      const single = render('company-a', 'A-1');
      await Promise.all([...burst, single]);
      expect(finished).toEqual(['B-1', 'A-1', 'B-2', 'B-3', 'B-4']);
      expect(renderer.renders).toBe(5);
    } finally {
      await renderer.close();
    }
  });

  it('a full queue is a queue limit, whichever company asks', async () => {
    const renderer = new PdfRenderer({ threads: 1, queue: 1, timeoutMs: 60_000, memoryMb: 512, maxPages: 1000 });
    try {
      const first = renderer.render(view('B-1'), 'company-b');
      const second = renderer.render(view('B-2'), 'company-b');
      const refused = renderer.render(view('A-1'), 'company-a').catch((error: unknown) => error);
      const error = await refused;
      expect(error).toBeInstanceOf(PdfRenderLimitError);
      expect(error).toMatchObject({ limit: 'queue', value: 1 });
      await Promise.all([first, second]);
    } finally {
      await renderer.close();
    }
  });
});
