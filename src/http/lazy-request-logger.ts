import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes pino's child (with the request id) only when a line is actually
 * written. Fastify makes a child per request; with the redaction every line needs, that cost a few
 * percent of a short request (docs/performance.md), even at `LOG_LEVEL=warn` where most requests log
 * nothing. Every line written still carries the request id.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.child().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings?: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    const own = this.made ?? this.make();
    return bindings === undefined ? own : own.child(bindings, options);
  }

  private make(): FastifyBaseLogger {
    this.made = this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: Level, args: unknown[]): void {
    if (this.made === null && !enabled(this.parent, level)) return;
    const logger = this.made ?? this.make();
    (logger[level] as (...a: unknown[]) => void)(...args);
  }
}

/** Pino's level check; Fastify's silent default logger (logger: false) has none and writes nothing. */
function enabled(logger: FastifyBaseLogger, level: Level): boolean {
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check === 'function' ? check.call(logger, level) : true;
}

/** Fastify's `childLoggerFactory`: the request logger, made lazily. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route's own logLevel may be more verbose than the parent's: its child decides, so make it now.
  if (options.level !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
