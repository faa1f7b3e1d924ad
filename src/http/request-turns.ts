// The API process's event loop shared fairly between companies (issue 46): at most `turns` requests run at once, and
// when all turns are taken each company waits in a queue of its own, served in turn (FairQueue). One company's burst
// — 50 parallel searches, back-to-back batches — so waits behind itself, and another company's request has the next
// free turn. A company holds at most `turnsPerCompany` turns, so that requests of one company that wait long (a slow
// outside service) leave turns for the others; one with `waitingPerCompany` requests waiting already is answered
// `429 concurrency_limited` with Retry-After. Uploads and PDF renders take no turn: they wait for their bodies or for
// the render threads, not for this thread, and have slots and a fair queue of their own (concurrency.ts,
// pdf/render-pool.ts).
import { availableParallelism } from 'node:os';
import type { Config } from '../config.ts';
import { FairQueue, FairQueueFullError } from '../pdf/fair-queue.ts';
import { defineMessages } from './message-catalogue.ts';
import { ApiProblem } from './problems.ts';

const texts = defineMessages({
  'concurrency.requests': {
    en: 'This company already has {waiting} requests waiting for their turn, its most at once; try again after Retry-After seconds.',
    nl: 'Dit bedrijf heeft al {waiting} verzoeken die op hun beurt wachten, het maximum tegelijk; probeer het opnieuw na Retry-After seconden.',
    de: 'Dieses Unternehmen hat bereits {waiting} Anfragen, die auf ihre Reihe warten, das Höchste gleichzeitig; versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Cette entreprise a déjà {waiting} requêtes qui attendent leur tour, son maximum simultané ; réessayez après Retry-After secondes.',
  },
} as const);

export type RequestTurnLimits = { turns: number; turnsPerCompany: number; waitingPerCompany: number };

/**
 * Two turns per core: few enough that a request shares the thread and PostgreSQL with a handful of others (its time
 * grows with the requests running beside it), enough to keep both busy. A company may hold all but a quarter of them
 * (at least two stay for the others). Measured in the noisy-neighbour drill on two cores (docs/drills.md): with 8
 * turns another company's p99 under attack was 557 ms, with 4 turns 202 ms, with 2 turns 735 ms (its own requests
 * then wait behind each other), and the attacker's throughput was no lower with 4 than with 8.
 */
export function defaultRequestTurns(
  config: Pick<Config, 'API_REQUEST_TURNS' | 'API_REQUESTS_WAITING_PER_COMPANY'>,
): RequestTurnLimits {
  const turns = config.API_REQUEST_TURNS ?? 2 * availableParallelism();
  return {
    turns,
    turnsPerCompany: Math.max(1, turns - Math.max(2, Math.ceil(turns / 4))),
    waitingPerCompany: config.API_REQUESTS_WAITING_PER_COMPANY,
  };
}

export class RequestTurns {
  readonly #queue: FairQueue;

  constructor(
    readonly limits: RequestTurnLimits,
    /** Told of every refusal (the /metrics counter). */
    private readonly refused: () => void = () => {},
  ) {
    this.#queue = new FairQueue({
      slots: limits.turns,
      maxWaiting: Number.POSITIVE_INFINITY,
      runningPerCompany: limits.turnsPerCompany,
      waitingPerCompany: limits.waitingPerCompany,
    });
  }

  get running() {
    return this.#queue.running;
  }

  get waiting() {
    return this.#queue.waiting;
  }

  /** `work` in the company's turn; 429 concurrency_limited at once when the company has too many waiting. */
  async run<T>(companyId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.#queue.run(companyId, work);
    } catch (error) {
      if (!(error instanceof FairQueueFullError) || !error.ofCompany) throw error;
      this.refused();
      throw new ApiProblem(
        'concurrency_limited',
        texts.message('concurrency.requests', { waiting: error.waiting }),
        {},
        { 'Retry-After': '1' },
      );
    }
  }
}
