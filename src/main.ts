import { pathToFileURL } from 'node:url';
import type { Config } from './config.js';
import type { RelyingParty } from './http/ui/oidc-routes.js';
import { type HeapSizing, sizeHeap } from './lib/heap-sizing.js';

/**
 * Semi-spaces of 8 MB instead of V8's 16, and the old generation collected when it has grown by 20 % of
 * its live size instead of up to 4 times: peak RSS under the API benchmark about 140–150 MB instead of
 * 200–215, for more (short) collections; WebAssembly (the webhook sender's HTTP parser) is not optimised,
 * which saved 20–35 MB of compiler memory when deliveries start (docs/decisions.md, "Server memory").
 */
export const SERVER_HEAP: HeapSizing = {
  maxSemiSpaceMb: 8,
  oldGenerationGrowthPercent: 20,
  webAssemblyBaselineOnly: true,
};

export async function serve(): Promise<void> {
  // Before the server's modules load: their start-up allocations would otherwise grow the semi-spaces to
  // V8's maximum at once. The rest is imported only now for that reason.
  const heap = sizeHeap(SERVER_HEAP);
  const [{ buildApp }, { ConfigError, loadConfig }, { createRuntime }] = await Promise.all([
    import('./app.js'),
    import('./config.js'),
    import('./runtime.js'),
  ]);
  let config: Config;
  let identityProvider: RelyingParty | null;
  try {
    config = loadConfig();
    // Before the database opens: an issuer that does not answer stops the start (exit 1, naming it).
    identityProvider = await (await import('./single-sign-on.js')).discoverIdentityProvider(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`laneboard: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  if (config.databaseUrl === null) {
    // `laneboard restore` refuses a data directory a running server holds (docs/operations.md, Backups).
    const { holdDataDir } = await import('./lib/data-dir-lock.js');
    process.once('exit', holdDataDir(config.dataDir));
  }
  const runtime = await createRuntime(config, {
    migrations: 'apply',
    redis: true,
    dispatcherThread: true,
  });
  const app = await buildApp({
    database: runtime.database,
    services: runtime.services,
    rateLimit: config.rateLimit,
    redis: runtime.redis,
    trustProxy: config.trustProxy,
    loggerInstance: runtime.log,
    singleSignOn: identityProvider && { relyingParty: identityProvider, secrets: runtime.secrets },
    metrics:
      runtime.metrics && config.metricsToken
        ? { token: config.metricsToken, metrics: runtime.metrics }
        : null,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // close() stops accepting connections and waits for in-flight requests.
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  runtime.startBackground();
  heap.allowYoungGrowth();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve().catch((error: unknown) => {
    process.stderr.write(
      `laneboard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
