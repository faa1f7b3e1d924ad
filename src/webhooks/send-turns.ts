// Turns to send to an endpoint: at most SENDS_PER_ENDPOINT requests in flight to one endpoint across all jobs of
// a worker (its delivery jobs and its fan-outs), the others waiting, first come, first sent. A counter and a
// queue rather than p-limit, which made five promises per call (scripts/bench/README.md); this runs for
// every message.

/**
 * A receiver gets at most this many connections from us (kept alive: below the agents' MAX_FREE_SOCKETS), and a
 * request's 10-second limit starts when it is sent, not while it waits for its turn.
 */
export const SENDS_PER_ENDPOINT = 16;

/** An endpoint's sends in flight, and those waiting for their turn (from `head` on). */
type Turns = { active: number; waiting: (Turn<unknown> | undefined)[]; head: number };

export class SendTurns {
  private readonly endpoints = new Map<string, Turns>();

  /** Runs `send` in the endpoint's turn: at once when one is free. */
  send<T>(endpointId: string, send: () => Promise<T>): Promise<T> {
    let turns = this.endpoints.get(endpointId);
    if (!turns) {
      turns = { active: 0, waiting: [], head: 0 };
      this.endpoints.set(endpointId, turns);
    }
    const endpoint = turns;
    return new Promise<T>((resolve, reject) => {
      const turn = new Turn(this, endpointId, endpoint, send, resolve, reject);
      if (endpoint.active < SENDS_PER_ENDPOINT) turn.start();
      else endpoint.waiting.push(turn as Turn<unknown>);
    });
  }

  /** A turn is over: the endpoint's next waiting send starts. */
  ended(endpointId: string, turns: Turns): void {
    turns.active--;
    const next = turns.waiting[turns.head];
    if (next) {
      turns.waiting[turns.head++] = undefined;
      if (turns.head === turns.waiting.length) {
        turns.waiting = [];
        turns.head = 0;
      }
      next.start();
    } else if (turns.active === 0) {
      this.endpoints.delete(endpointId);
    }
  }
}

/** One send and its caller. A class, not closures: made for every message (and tsx names every closure). */
class Turn<T> {
  constructor(
    private readonly owner: SendTurns,
    private readonly endpointId: string,
    private readonly turns: Turns,
    private readonly send: () => Promise<T>,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    this.turns.active++;
    let sending: Promise<T>;
    try {
      sending = this.send();
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending.then(
      (value) => {
        this.owner.ended(this.endpointId, this.turns);
        this.resolve(value);
      },
      (error: unknown) => {
        this.owner.ended(this.endpointId, this.turns);
        this.reject(error);
      },
    );
  }
}
