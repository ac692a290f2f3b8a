import { pathToFileURL } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createRuntime } from './runtime.js';

export async function serve(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`laneboard: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
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
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve().catch((error: unknown) => {
    process.stderr.write(
      `laneboard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
