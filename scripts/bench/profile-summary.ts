// npx tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top] [from-seconds] [to-seconds]
// What a V8 CPU profile (node --cpu-prof; `npm run bench -- --profile`) spends its time on: self time per
// function and per package / source file, and the inclusive time of the project's own functions, in per cent of
// the samples and of the busy ones (not idle). `from`/`to`: only the samples that many seconds after the profile's
// start (the bench prints when each of the API's loaded phases starts and ends, in the API process's seconds).
// PROFILE_INCLUSIVE=<package> (drizzle-orm, hono, …) also lists the inclusive time of that package's functions.
import { readFileSync } from 'node:fs';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [file, topArg, fromArg, toArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [top] [from-seconds] [to-seconds]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const from = Number(fromArg ?? 0) * 1e6;
const to = toArg === undefined ? Number.POSITIVE_INFINITY : Number(toArg) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
let total = 0;
let idle = 0;
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (at < from || at > to) return;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
  if (byId.get(id)?.callFrame.functionName === '(idle)') idle += dt;
});

const where = (url: string) => {
  if (!url) return '(native)';
  const nm = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1];
  if (url.startsWith('node:')) return url;
  const own = url.match(/\/(src|scripts|generated)\/.*$/);
  return own ? own[0].slice(1) : url;
};
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const add = (map: Map<string, number>, key: string, v: number) => map.set(key, (map.get(key) ?? 0) + v);
const fnSelf = new Map<string, number>();
const groupSelf = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id);
  if (!n) continue;
  add(fnSelf, name(n), t);
  add(groupSelf, where(n.callFrame.url) || n.callFrame.functionName, t);
  // Inclusive time of each distinct function on the stack (counted once per sample).
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const node = byId.get(cur);
    if (!node) break;
    const key = name(node);
    if (!seen.has(key)) {
      seen.add(key);
      add(inclusive, key, t);
    }
  }
}
const busy = total - idle;
const pct = (t: number) =>
  `${((100 * t) / total).toFixed(1).padStart(5)}% ${`(${((100 * t) / busy).toFixed(1)}%)`.padStart(8)}`;
const print = (title: string, map: Map<string, number>, filter: (k: string) => boolean = () => true) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...map]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`  ${pct(t)}  ${k}`);
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy; per cent of all (of busy)`,
);
print('self time by package / file', groupSelf);
print('self time by function', fnSelf);
print('inclusive time, own code', inclusive, (k) => / (src|scripts|generated)\//.test(k));
if (process.env.PROFILE_INCLUSIVE)
  print(`inclusive time, ${process.env.PROFILE_INCLUSIVE}`, inclusive, (k) =>
    k.includes(` ${process.env.PROFILE_INCLUSIVE}:`),
  );
