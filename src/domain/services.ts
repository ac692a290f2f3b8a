import type { Database } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { Clock } from '../lib/time.js';
import type { EventRecorder } from './events.js';

/** What every domain service is built from. */
export interface ServiceDeps {
  database: Database;
  events: EventRecorder;
  secrets: SecretBox;
  clock: Clock;
}
