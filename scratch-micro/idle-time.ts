import { readFileSync } from 'node:fs';
type Node = { id: number; callFrame: { functionName: string } };
const p = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
const byId = new Map(p.nodes.map((n) => [n.id, n]));
let t = 0; const buckets = new Map<number, { idle: number; gc: number; all: number }>();
p.samples.forEach((id, i) => {
  const dt = p.timeDeltas[i] ?? 0; t += dt;
  const b = Math.floor(t / 200000);
  const e = buckets.get(b) ?? { idle: 0, gc: 0, all: 0 };
  const name = byId.get(id)?.callFrame.functionName;
  if (name === '(idle)') e.idle += dt; if (name === '(garbage collector)') e.gc += dt; e.all += dt;
  buckets.set(b, e);
});
console.log([...buckets].map(([b, e]) => `${(b * 0.2).toFixed(1)}s idle ${((100 * e.idle) / e.all).toFixed(0)}% gc ${((100 * e.gc) / e.all).toFixed(0)}%`).join('\n'));
