// When failed deliveries are tried again: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the previous
// attempt — eight attempts in about 27 hours. The delivery task schedules the next attempt itself.
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** An endpoint that only failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** Delay before attempt `attemptNumber + 1`, or null when `attemptNumber` was the last one. */
export function nextDelaySeconds(attemptNumber: number): number | null {
  return attemptNumber < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[attemptNumber - 1] : null;
}

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 4096;
