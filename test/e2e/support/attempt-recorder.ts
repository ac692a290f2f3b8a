import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery attempt as the receiver saw it, from its request's arrival to its response or abort. */
export interface RecordedAttempt {
  deliveryId: string;
  eventId: string;
  startedAt: number;
  /** When the answer was sent, or the sender's connection closed first; null while still open. */
  endedAt: number | null;
  /** A 2xx answer went out completely (the sender may still have died before reading it). */
  answered: boolean;
  /** The sender's source port: attempts on one keep-alive connection come from one instance. */
  remotePort: number;
}

/**
 * A webhook receiver on 127.0.0.1 that records every attempt with its X-Service-Delivery id and the time
 * it started and ended, so a test can check that no delivery was ever attempted twice at once. Answers
 * 204 after `delayMs` (change it at any time to make the receiver slow or fast).
 */
export class AttemptRecorder {
  readonly attempts: RecordedAttempt[] = [];
  delayMs = 0;
  private holding = false;
  private readonly heldAnswers: Array<() => void> = [];

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<AttemptRecorder> {
    const server = http.createServer();
    const recorder = new AttemptRecorder(server);
    server.on('request', (req, res) => recorder.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return recorder;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Attempts whose request arrived and which neither got an answer nor were aborted yet. */
  get open(): RecordedAttempt[] {
    return this.attempts.filter((a) => a.endedAt === null);
  }

  /** From now on no answer goes out until release(): the attempts open now stay open. */
  hold(): void {
    this.holding = true;
  }

  /** Sends the answers held back (to senders still there), and answers as before. */
  release(): void {
    this.holding = false;
    for (const answer of this.heldAnswers.splice(0)) answer();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const attempt: RecordedAttempt = {
      deliveryId: String(req.headers['x-service-delivery'] ?? ''),
      eventId: '',
      startedAt: Date.now(),
      endedAt: null,
      answered: false,
      remotePort: req.socket.remotePort ?? 0,
    };
    this.attempts.push(attempt);
    res.on('finish', () => {
      attempt.answered = true;
      attempt.endedAt ??= Date.now();
    });
    // Without a finish first, the sender went away (killed) in the middle of the attempt.
    res.on('close', () => {
      attempt.endedAt ??= Date.now();
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        attempt.eventId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      } catch {
        attempt.eventId = '(unreadable body)';
      }
      const answer = () => {
        if (this.holding) this.heldAnswers.push(answer);
        else if (!res.destroyed && !res.writableEnded) res.writeHead(204).end();
      };
      if (this.delayMs > 0) setTimeout(answer, this.delayMs);
      else answer();
    });
  }
}

/**
 * Pairs of attempts of one delivery whose intervals overlap: the same delivery in the hands of two
 * senders at once. An attempt still open counts as lasting until now.
 */
export function overlappingAttempts(attempts: readonly RecordedAttempt[]): RecordedAttempt[][] {
  const byDelivery = new Map<string, RecordedAttempt[]>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.deliveryId) ?? [];
    list.push(attempt);
    byDelivery.set(attempt.deliveryId, list);
  }
  const overlaps: RecordedAttempt[][] = [];
  for (const list of byDelivery.values()) {
    const sorted = [...list].sort((a, b) => a.startedAt - b.startedAt);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      const current = sorted[i]!;
      if ((previous.endedAt ?? Number.POSITIVE_INFINITY) > current.startedAt)
        overlaps.push([previous, current]);
    }
  }
  return overlaps;
}
