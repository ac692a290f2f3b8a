import type { Database } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { Clock } from '../lib/time.js';
import type { ActivityRecorder } from './activities/activity-recorder.js';

/** What every domain service is built from. */
export interface ServiceDeps {
  database: Database;
  /** Records every committed change (one activity per change, in the change's transaction). */
  activities: ActivityRecorder;
  secrets: SecretBox;
  clock: Clock;
}
