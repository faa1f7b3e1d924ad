// Delivery jobs running at once per endpoint. Sending waits for the endpoint (SENDS_PER_ENDPOINT requests in
// flight, each up to 10 s): without a limit on jobs, one hanging endpoint would fill every worker slot with jobs
// waiting for their turn and hold back every other endpoint of every company. So at most JOBS_PER_ENDPOINT jobs
// of one endpoint run at once in a worker; a further job waits for one of them to end, up to ADMISSION_WAIT_MS
// (a fast endpoint ends jobs well within that, a slow one does not, and the job is then postponed: see
// jobs/webhook-deliver.ts).

/** Enough to keep a fast endpoint's SENDS_PER_ENDPOINT requests busy while a job's results are recorded. */
export const JOBS_PER_ENDPOINT = 4;
export const ADMISSION_WAIT_MS = 1_000;

/** Per endpoint: the jobs running and the jobs waiting for one of them to end (first come, first run). */
type Endpoint = { running: number; waiting: (() => void)[] };

export class EndpointAdmission {
  private readonly endpoints = new Map<string, Endpoint>();

  /** Takes a place among the endpoint's running jobs, waiting at most ADMISSION_WAIT_MS; answers whether. */
  admit(endpointId: string): Promise<boolean> {
    let endpoint = this.endpoints.get(endpointId);
    if (!endpoint) {
      endpoint = { running: 0, waiting: [] };
      this.endpoints.set(endpointId, endpoint);
    }
    if (endpoint.running < JOBS_PER_ENDPOINT && endpoint.waiting.length === 0) {
      endpoint.running++;
      return Promise.resolve(true);
    }
    const state = endpoint;
    return new Promise<boolean>((resolve) => {
      const turn = () => {
        clearTimeout(timer);
        state.running++;
        resolve(true);
      };
      const timer = setTimeout(() => {
        state.waiting.splice(state.waiting.indexOf(turn), 1);
        resolve(false);
      }, ADMISSION_WAIT_MS);
      state.waiting.push(turn);
    });
  }

  /** Gives up an admitted job's place: the next waiting job of the endpoint runs. */
  leave(endpointId: string): void {
    const endpoint = this.endpoints.get(endpointId);
    if (!endpoint) return;
    endpoint.running--;
    const next = endpoint.waiting.shift();
    if (next) next();
    else if (endpoint.running === 0) this.endpoints.delete(endpointId);
  }
}
