import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';
const MIN_LENGTH = 32;

/**
 * The configured master key, or in embedded mode the one in the data dir, generated (mode 0600) on
 * first start. Losing this file makes stored API keys and webhook secrets unreadable.
 */
export function resolveMasterKey(configured: string | null, dataDir: string): string {
  if (configured !== null) return configured;
  const file = path.join(dataDir, KEY_FILE);
  try {
    return checked(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return checked(fs.readFileSync(file, 'utf8'), file);
    throw error;
  }
}

/**
 * A truncated or emptied key file must stop the start: with another key every stored API key would
 * silently stop matching and every stored secret would be unreadable.
 */
function checked(content: string, file: string): string {
  const key = content.trim();
  if (key.length < MIN_LENGTH) {
    throw new Error(
      `${file} holds no valid master key (at least ${MIN_LENGTH} characters); restore it from a backup.`,
    );
  }
  return key;
}
