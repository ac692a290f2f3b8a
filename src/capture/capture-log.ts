import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../lib/time.js';

/** Above this size the log is moved to `capture.log.1` (replacing the previous one) and started anew. */
const ROTATE_BYTES = 1024 * 1024;

export interface CaptureLog {
  info(message: string): void;
  error(message: string): void;
}

/**
 * Appends to `<dir>/capture.log`. A hook's stderr is shown to the person by Claude Code, so capture writes
 * here instead. Logging must never fail a run: errors writing the log are swallowed. Callers never pass
 * the API key.
 */
export function fileLog(dir: string, clock: Clock): CaptureLog {
  const file = path.join(dir, 'capture.log');
  const write = (level: string, message: string) => {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      try {
        if (fs.statSync(file).size > ROTATE_BYTES) fs.renameSync(file, `${file}.1`);
      } catch {
        // no log yet
      }
      const line = `${new Date(clock.now()).toISOString()} ${level} [${process.pid}] ${message.replace(/\s+/g, ' ')}\n`;
      fs.appendFileSync(file, line, { mode: 0o600 });
    } catch {
      // nowhere to log to: stay silent rather than disturb the agent
    }
  };
  return { info: (m) => write('info', m), error: (m) => write('error', m) };
}
