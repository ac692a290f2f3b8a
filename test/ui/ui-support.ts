import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Dialect } from '../../src/db/schema.js';
import type { ActivityConsumer } from '../../src/domain/activities/activity-types.js';
import { type Actor, CLI_OPERATOR } from '../../src/domain/actor.js';
import type { ThrottleLimits } from '../../src/domain/people/sign-in-throttle.js';
import type { LiveStreamSettings } from '../../src/http/ui/ui-api.js';
import type { Clock } from '../../src/lib/time.js';
import type { Runtime } from '../../src/runtime.js';
import type { Services } from '../../src/services.js';
import { ManualClock } from '../support/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { useFixture } from '../support/dialects.js';
import { testRuntime } from '../support/runtime.js';

export const ORIGIN = 'http://localhost:80';
export const OPERATOR: Actor = CLI_OPERATOR;
export const GOOD_PASSWORD = 'correct horse battery';

export interface UiTestApp {
  app: FastifyInstance;
  runtime: Runtime;
  services: Services;
  db: TestDatabase;
  clock: ManualClock;
  /** A browser: keeps the session cookie it is given, sends `Origin` on unsafe methods. */
  browser(): Browser;
  /** Creates a person with the operator's rights and returns a browser signed in as them. */
  person(
    role: 'owner' | 'admin' | 'member',
    name?: string,
  ): Promise<{ id: string; email: string; browser: Browser }>;
  close(): Promise<void>;
}

export interface Browser {
  cookie: string | null;
  request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export interface UiTestAppOptions {
  sessionTtlMs?: number;
  throttle?: ThrottleLimits;
  trustProxy?: boolean;
  activities?: ActivityConsumer;
  clock?: Clock;
  liveStreams?: LiveStreamSettings;
  /** Start the webhook dispatcher (loopback receivers allowed, quick polling). */
  deliver?: boolean;
}

let counter = 0;

export async function buildUiTestApp(dialect: Dialect, options: UiTestAppOptions = {}): Promise<UiTestApp> {
  const db = await createTestDatabase(dialect);
  const clock = new ManualClock();
  const runtime = await testRuntime(db.database, {
    clock: options.clock ?? clock,
    config: { webhooks: { allowHttp: true, allowPrivate: true } as never },
    services: {
      people: {
        ...(options.sessionTtlMs ? { sessionTtlMs: options.sessionTtlMs } : {}),
        ...(options.throttle ? { throttle: options.throttle } : {}),
      },
    },
    ...(options.activities ? { activityConsumers: [options.activities] } : {}),
    dispatcher: { allowPrivate: true, pollIntervalMs: 100, retryDelaysMs: [60_000], timeoutMs: 2000 },
  });
  if (options.deliver) runtime.dispatcher.start();
  const services = runtime.services;
  const app = await buildApp({
    database: db.database,
    services,
    rateLimit: { max: 1_000_000, windowMs: 60_000 },
    trustProxy: options.trustProxy ?? false,
    ...(options.liveStreams ? { liveStreams: options.liveStreams } : {}),
  });
  await app.ready();

  const browser = (): Browser => {
    const b: Browser = {
      cookie: null,
      async request(method, url, body, headers = {}) {
        const all: Record<string, string> = { ...headers };
        if (method !== 'GET' && method !== 'HEAD' && !('origin' in all)) all.origin = ORIGIN;
        if (all.origin === '') delete all.origin;
        if (b.cookie !== null) all.cookie = `lb_session=${b.cookie}`;
        const response = await app.inject({
          method,
          url,
          headers: all,
          ...(body === undefined ? {} : { payload: body as object }),
        });
        for (const c of response.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
          if (c.name === 'lb_session') b.cookie = c.value === '' || c.maxAge === 0 ? null : c.value;
        }
        return response;
      },
    };
    return b;
  };

  return {
    app,
    runtime,
    services,
    db,
    clock,
    browser,
    async person(role, name) {
      counter += 1;
      const email = `person${counter}@example.com`;
      const user = await services.people.createPerson(OPERATOR, {
        email,
        name: name ?? `Person ${counter}`,
        password: GOOD_PASSWORD,
        role,
      });
      const b = browser();
      const signIn = await b.request('POST', '/api/ui/session', { email, password: GOOD_PASSWORD });
      if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
      return { id: user.id, email, browser: b };
    },
    async close() {
      await app.close();
      await runtime.close();
      await db.drop();
    },
  };
}

/** The UI test app for the enclosing describe: built in beforeAll, closed in afterAll. */
export function useUiTestApp(dialect: Dialect, options: UiTestAppOptions = {}): UiTestApp {
  return useFixture(
    `the ${dialect} UI test app`,
    () => buildUiTestApp(dialect, options),
    (t) => t.close(),
  );
}

export function expectErrorCode(response: LightMyRequestResponse, status: number, code: string): void {
  if (response.statusCode !== status || response.json().error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.statusCode} ${response.body}`);
  }
}
