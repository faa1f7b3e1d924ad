// Sender CPU per request: postJson (undici Pool + Exchange) against a receiver in another process.
import { postJson } from '../src/webhooks/http-post.ts';
import { signatureHeader } from '../src/webhooks/sign.ts';
const port = Number(process.argv[2] || 39123);
const mode = process.argv[3] || 'full';
const url = new URL(`http://127.0.0.1:${port}/hook/1`);
const target = { url, address: '127.0.0.1', family: 4 as const };
const body = Buffer.from(JSON.stringify({ object: 'event', id: 'evt_x', type: 'customer.updated', data: { object: { id: 'x'.repeat(26), name: 'y'.repeat(600) } } }));
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const opts = { timeoutMs: 10000, maxResponseBytes: 4096 };
async function worker(n: number) {
  for (let i = 0; i < n; i++) {
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': `evt_${i}`, 'webhook-timestamp': String(ts), 'webhook-signature': mode === 'nosign' ? 'v1,x' : signatureHeader([secret], `evt_${i}`, ts, body), 'User-Agent': 'Service-Webhooks/1.0' };
    const r = await postJson(target, body, headers, opts);
    if (r.error) throw new Error(String(r.error));
  }
}
for (const round of [1, 2, 3, 4]) {
  const N = 20000, C = 48;
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await Promise.all(Array.from({ length: C }, () => worker(N / C)));
  const c = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(`${mode} round ${round}: ${(N / (t / 1000)).toFixed(0)} req/s, process CPU ${((c.user + c.system) / N).toFixed(1)} µs/req`);
}
process.exit(0);
