// Prism (@stoplight/prism-cli) of the English bundle for the contract tests: a validating proxy in front of a
// server; and a client that fails a step on any violation Prism reports.
import { join } from 'node:path';
import { expect } from 'vitest';
import { type OperationId, operations } from '../../generated/operations.ts';
import { conformanceProblems } from './contract.ts';
import { freePort, type Started, startHttpProcess } from './processes.ts';

const PRISM = join(process.cwd(), 'node_modules', '.bin', 'prism');

/**
 * `prism proxy --errors` to `upstream` (a base URL ending in /api/v1); the mock is `npm run mock` (scripts/mock.ts,
 * prism-mock.test.ts). Each start loads and dereferences the whole contract, seconds of CPU: a file starts one and
 * its tests share it.
 */
export async function startPrism(upstream: string): Promise<Started> {
  const port = await freePort();
  return startHttpProcess(
    PRISM,
    ['proxy', 'generated/openapi.en.json', upstream, '--errors', '--port', String(port), '--host', '127.0.0.1'],
    `http://127.0.0.1:${port}`,
  );
}

export type Send = {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
};
// Bodies are checked against the contract (conformanceProblems) before a step reads them.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Answer = { status: number; headers: Headers; body: any };

/** A client of one base URL that checks every answer: no Prism violation, declared by the contract. */
export function prismClientOf(base: string, key: string) {
  const log: string[] = [];
  async function send(id: OperationId, opts: Send = {}): Promise<Answer> {
    const op = operations[id];
    let path: string = op.path;
    for (const [k, v] of Object.entries(opts.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
    const query = new URLSearchParams(Object.entries(opts.query ?? {}).map(([k, v]) => [k, String(v)]));
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}${query.size ? `?${query}` : ''}`, {
      method: op.method.toUpperCase(),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    const violations = response.headers.get('sl-violations');
    log.push(`${id} ${response.status}`);
    expect(violations, `${id}: Prism reports violations`).toBeNull();
    expect(response.status, `${id}: ${text.slice(0, 1500)}`).toBeLessThan(500);
    expect(conformanceProblems(id, { status: response.status, headers: response.headers, body }), id).toEqual([]);
    return { status: response.status, headers: response.headers, body };
  }
  return { send, log };
}
