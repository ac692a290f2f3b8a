export type AttemptOutcome =
  | { status: 'delivered' }
  | { status: 'failed' }
  | { status: 'pending'; nextAttemptAt: number };

/**
 * What follows attempt number `attempts` (1-based). `retryDelaysMs[i]` is the wait before attempt i+2,
 * so the attempt limit is the number of delays + 1 (the specification's 1m, 5m, 30m, 2h gives 5).
 */
export function outcomeOfAttempt(
  succeeded: boolean,
  attempts: number,
  retryDelaysMs: readonly number[],
  nowMs: number,
): AttemptOutcome {
  if (succeeded) return { status: 'delivered' };
  const delay = retryDelaysMs[attempts - 1];
  if (delay === undefined) return { status: 'failed' };
  return { status: 'pending', nextAttemptAt: nowMs + delay };
}

export function maxAttempts(retryDelaysMs: readonly number[]): number {
  return retryDelaysMs.length + 1;
}
