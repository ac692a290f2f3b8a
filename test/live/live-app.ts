import type { AddressInfo } from 'node:net';
import type { Dialect } from '../../src/db/schema.js';
import { useFixture } from '../support/dialects.js';
import { type Browser, buildUiTestApp, type UiTestApp, type UiTestAppOptions } from '../ui/ui-support.js';

/** The UI test app listening on a local port, for stream clients, with a member signed in. */
export interface ListeningUiApp extends UiTestApp {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Ada, a member, signed in. */
  ada: { id: string; browser: Browser };
}

async function listeningUiApp(dialect: Dialect, options: UiTestAppOptions): Promise<ListeningUiApp> {
  const t = await buildUiTestApp(dialect, options);
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    return { ...t, base, ada: await t.person('member', 'Ada') };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** A listening UI test app with Ada signed in, for the enclosing describe: built in beforeAll, closed in afterAll. */
export function useListeningUiApp(dialect: Dialect, options: UiTestAppOptions = {}): ListeningUiApp {
  return useFixture(
    `the listening ${dialect} UI test app`,
    () => listeningUiApp(dialect, options),
    (t) => t.close(),
  );
}
