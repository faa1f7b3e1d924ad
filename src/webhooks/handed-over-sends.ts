// What a worker's fan-outs remember between batches: the endpoints that were slow (a send handed over after
// SLOW_SEND_MS in flight, fanout.ts, gets its endpoint delivery jobs only for SLOW_ENDPOINT_MS), and the recordings of handed-over
// sends still to come, awaited at shutdown (see fanout.ts).

export const SLOW_ENDPOINT_MS = 60_000;

export class HandedOverSends {
  /** Per endpoint: until when it gets delivery jobs only. */
  private readonly slowUntil = new Map<string, number>();
  private readonly recordings = new Set<Promise<unknown>>();

  markSlow(endpointId: string, at: Date): void {
    this.slowUntil.set(endpointId, at.getTime() + SLOW_ENDPOINT_MS);
  }

  isSlow(endpointId: string, at: Date): boolean {
    const until = this.slowUntil.get(endpointId);
    if (until === undefined) return false;
    if (until > at.getTime()) return true;
    this.slowUntil.delete(endpointId);
    return false;
  }

  /** Keeps `recording` (which never rejects) until it is in. */
  track(recording: Promise<void>): void {
    this.recordings.add(recording);
    void recording.finally(() => this.recordings.delete(recording));
  }

  /** Waits until the recordings of handed-over sends are in (at shutdown, and in tests). */
  async settle(): Promise<void> {
    while (this.recordings.size > 0) await Promise.all(this.recordings);
  }
}
