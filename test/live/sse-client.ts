/** One server-sent event as a browser's EventSource would see it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** A server-sent event stream read with fetch, parsed as EventSource does (events, comments ignored). */
export class SseClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  ended = false;
  status = 0;
  contentType = '';
  private readonly abort = new AbortController();
  private body: Promise<void> = Promise.resolve();

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const client = new SseClient();
    const response = await fetch(url, { headers, signal: client.abort.signal });
    client.status = response.status;
    client.contentType = response.headers.get('content-type') ?? '';
    if (!response.body || !client.contentType.startsWith('text/event-stream')) {
      client.error = await response.text();
      client.ended = true;
      return client;
    }
    client.body = client.read(response.body);
    return client;
  }

  /** The JSON body of a refused request. */
  error = '';

  lastId(): string | null {
    return [...this.events].reverse().find((e) => e.id !== null)?.id ?? null;
  }

  async next(match: (event: SseEvent) => boolean, timeoutMs = 20_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async untilEnded(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error(`stream still open after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.body.catch(() => {});
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } finally {
      this.ended = true;
    }
  }

  private parse(block: string): void {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments += 1;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else continue;
      fields += 1;
    }
    if (fields > 0 && data.length > 0) this.events.push({ id, event, data: data.join('\n') });
  }
}
