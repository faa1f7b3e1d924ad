import { createHmac, createSecretKey, createHash } from 'node:crypto';
const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
const ko = createSecretKey(key);
const body = Buffer.alloc(700, 97);
function bench(name, f) {
  for (let r = 0; r < 3; r++) {
    const N = 100000; const t = process.cpuUsage();
    for (let i = 0; i < N; i++) f(i);
    const c = process.cpuUsage(t); console.log(name, ((c.user + c.system) / N).toFixed(2), 'µs');
  }
}
bench('hmac buffer key', (i) => createHmac('sha256', key).update(`evt_${i}.1700000000.`).update(body).digest('base64'));
bench('hmac keyobject', (i) => createHmac('sha256', ko).update(`evt_${i}.1700000000.`).update(body).digest('base64'));
bench('hash only', (i) => createHash('sha256').update(`evt_${i}.1700000000.`).update(body).digest('base64'));
