// `events tail`: follows a company's event list live in the terminal, like `stripe listen`, through the API
// with an API key (so it works against any installation, local or hosted, and shows exactly the events that key
// may read), optionally forwarding each event, signed per Standard Webhooks like a real webhook message, to a
// local URL: a receiver can be developed on a machine the service cannot reach.
//
// It polls `GET /events` the way the contract tells integrators to catch up: `filter[created_since]` = the
// newest `created_at` seen minus 5 minutes, `sort=created_at`, every page, deduplicated on `id` (a change that
// took longer than a later one becomes visible after it, with the earlier time).

import { CrmApiError, type CrmClient, createCrmClient, listAll, ok, type Schemas } from '../client/index.ts';
import { type Clock, systemClock } from '../clock.ts';
import { newSecret, signatureHeader, signingKey } from '../webhooks/sign.ts';
import type { Command } from './args.ts';
import { type CliIo, write } from './io.ts';

export type TailOptions = {
  apiUrl: string;
  apiKey: string;
  /** Only these event types (`filter[type]`). */
  types?: string;
  /** Also print the events from this moment on (default: only events that happen after the start). */
  since?: Date;
  forwardTo?: string;
  /** The secret forwarded messages are signed with (`whsec_…`). */
  secret?: string;
  intervalMs: number;
  json: boolean;
};

export type TailIo = {
  /** One line per event (stdout). */
  out: (line: string) => void;
  /** Status and forwarding results (stderr). */
  info: (line: string) => void;
  /** Resolves when the tail must stop (Ctrl-C). */
  stopped: Promise<void>;
  now?: Clock;
};

type Event = Schemas['Event'];

/** The margin of the catch-up window (see the description of `GET /events`). */
export const OVERLAP_MS = 5 * 60_000;
const FORWARD_TIMEOUT_MS = 10_000;

/** An event as one line for a person: time, type, id and what it is about. */
export function eventLine(event: Event): string {
  const object = (event.data as { object?: { object?: string; id?: string; name?: string; title?: string } }).object;
  const about = object ? [object.object, object.id, object.name ?? object.title].filter(Boolean).join(' ') : '';
  return `${event.created_at}  ${event.type.padEnd(20)} ${event.id}  ${about}`.trimEnd();
}

/** POSTs the event to `url` as a webhook message (the event's own JSON, signed with `secret`). */
export async function forwardEvent(event: Event, url: string, secret: string, now: Date): Promise<string> {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(now.getTime() / 1000);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([signingKey(secret)], event.id, timestamp, body),
        'user-agent': 'Service-Webhooks/1.0 (events tail)',
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return `${response.status}`;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    return `failed: ${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`;
  }
}

/** Every event created at or after `since`, in the order of occurrence. */
async function eventsSince(client: CrmClient, since: Date, types: string | undefined): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of listAll((cursor) =>
    client.GET('/events', {
      params: {
        query: {
          limit: 100,
          sort: 'created_at',
          'filter[created_since]': since.toISOString(),
          ...(types ? { 'filter[type]': types } : {}),
          ...(cursor ? { cursor } : {}),
        },
      },
    }),
  )) {
    events.push(event);
  }
  return events;
}

/** Runs until `io.stopped` resolves; a failing poll is reported and tried again at the next interval. */
export async function tailEvents(options: TailOptions, io: TailIo): Promise<void> {
  const now = io.now ?? systemClock;
  const client = createCrmClient({ baseUrl: options.apiUrl, apiKey: options.apiKey, language: 'en' });
  let stopped = false;
  void io.stopped.then(() => {
    stopped = true;
  });
  // Ids already handled, with their created_at, forgotten once they are older than the window.
  const seen = new Map<string, number>();
  // A wrong URL or key fails here, at once, not in every poll.
  const answer = await client.GET('/me');
  const me = ok(answer).data;
  const floor = options.since?.getTime() ?? Number.NEGATIVE_INFINITY;
  // "Now" by the service's clock (its Date header), which stamps created_at: a local clock running minutes
  // ahead would otherwise start the window after events that are still to come.
  const serverNow = Date.parse(answer.response.headers.get('Date') ?? '');
  let newest = options.since?.getTime() ?? (Number.isNaN(serverNow) ? now().getTime() : serverNow);

  // Without --since, the events already in the first window were before the start: known, not shown.
  if (!options.since) {
    for (const event of await eventsSince(client, new Date(newest - OVERLAP_MS), options.types)) {
      seen.set(event.id, Date.parse(event.created_at));
      newest = Math.max(newest, Date.parse(event.created_at));
    }
  }
  io.info(
    `Tailing the events of company ${me.company.id} at ${options.apiUrl}${options.types ? ` (${options.types})` : ''}${
      options.forwardTo ? `, forwarding them to ${options.forwardTo}` : ''
    }. Ctrl-C to stop.`,
  );

  while (!stopped) {
    try {
      const from = Math.max(floor, newest - OVERLAP_MS);
      for (const event of await eventsSince(client, new Date(from), options.types)) {
        if (seen.has(event.id)) continue;
        const at = Date.parse(event.created_at);
        seen.set(event.id, at);
        newest = Math.max(newest, at);
        io.out(options.json ? JSON.stringify(event) : eventLine(event));
        if (options.forwardTo && options.secret) {
          const result = await forwardEvent(event, options.forwardTo, options.secret, now());
          io.info(`  → ${event.id} forwarded to ${options.forwardTo}: ${result}`);
        }
      }
      for (const [id, at] of seen) if (at < newest - 2 * OVERLAP_MS) seen.delete(id);
    } catch (error) {
      // A key that is revoked or may not read events will not recover by waiting.
      if (error instanceof CrmApiError && (error.status === 401 || error.status === 403)) throw error;
      io.info(`events tail: ${error instanceof Error ? error.message : String(error)} (trying again)`);
    }
    await Promise.race([io.stopped, new Promise((r) => setTimeout(r, options.intervalMs))]);
  }
}

/** `events tail` as a command: it runs until Ctrl-C (or SIGTERM) and then exits 0. */
export async function tailUntilStopped(command: Extract<Command, { name: 'events tail' }>, io: CliIo): Promise<number> {
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  let secret = command.secret;
  if (command.forwardTo && !secret) {
    secret = newSecret();
    await write(io.stderr, `Forwarded events are signed with ${secret} (pass --secret to keep one)\n`);
  }
  await tailEvents(
    { ...command, secret },
    { out: (line) => io.stdout.write(`${line}\n`), info: (line) => io.stderr.write(`${line}\n`), stopped },
  );
  return 0;
}
