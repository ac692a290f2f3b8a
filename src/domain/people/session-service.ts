import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOfUser,
  findSessionWithUser,
  insertSession,
  touchSession,
} from '../../db/repositories/sessions.js';
import { countUsers, findUserByEmailKey, insertUser } from '../../db/repositories/users.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { newId, randomString } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { Actor } from '../actor.js';
import { DomainError, invalid } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction } from '../transaction.js';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.js';
import { emailKey, toUser, type User, userActor } from './people-views.js';
import { DEFAULT_THROTTLE, SignInThrottle, type ThrottleLimits } from './sign-in-throttle.js';

export const DEFAULT_SESSION_TTL_MS = 14 * 24 * 3_600_000;
/** A session's expiry is pushed forward at most this often, so reading pages does not write every time. */
const TOUCH_INTERVAL_MS = 60_000;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const EMAIL_MAX = 254;

export interface PeopleOptions {
  sessionTtlMs?: number;
  throttle?: ThrottleLimits;
  /**
   * false: only owners sign in with a password (single sign-on for everyone else); owners always may,
   * so a broken identity provider never locks the service out. Default true.
   */
  passwordSignIn?: boolean;
}

export interface SignedIn {
  user: User;
  /** The cookie value; only its hash is stored. */
  sessionId: string;
}

export interface NewPerson {
  email: string;
  name: string;
  password: string;
}

export const invalidCredentials = (): DomainError =>
  new DomainError('invalid_credentials', 'Email or password is incorrect.');

export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) throw invalid('email', 'must be an email address.');
  if (trimmed.length > EMAIL_MAX) throw invalid('email', `must be at most ${EMAIL_MAX} characters long.`);
  return trimmed;
}

/** Setup, sign-in, sessions and sign-out. Sessions live in the database, shared by every instance. */
export class SessionService {
  readonly sessionTtlMs: number;
  readonly throttle: SignInThrottle;
  readonly passwordSignIn: boolean;

  constructor(
    private readonly deps: ServiceDeps,
    options: PeopleOptions = {},
  ) {
    this.sessionTtlMs = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
    this.throttle = new SignInThrottle(deps.clock, options.throttle ?? DEFAULT_THROTTLE);
    this.passwordSignIn = options.passwordSignIn ?? true;
  }

  async setupNeeded(): Promise<boolean> {
    return (await countUsers(this.deps.database.kysely)) === 0;
  }

  /** Creates the first owner and signs them in; refused once anyone exists. */
  async setup(input: NewPerson): Promise<SignedIn> {
    const row = await this.newUserRow(input, 'owner');
    return inTransaction(this.deps.database, async (tx) => {
      if (tx.dialect === 'postgres') {
        // Two browsers submitting setup at once: only one may create the owner.
        await sql`lock table users in share row exclusive mode`.execute(tx.db);
      }
      if ((await countUsers(tx.db)) > 0) {
        throw new DomainError('conflict', 'Laneboard is already set up: sign in instead.');
      }
      await insertUser(tx.db, row);
      return { user: toUser(row), sessionId: await this.startSession(tx.db, row.id) };
    });
  }

  async signIn(email: string, password: string, address: string | null): Promise<SignedIn> {
    const db = this.deps.database.kysely;
    const account = emailKey(email);
    await this.throttle.check(db, account, address);
    const row = await findUserByEmailKey(db, account);
    const usable = row !== undefined && row.active === 1;
    // A person without a password (made by single sign-on) is checked against the decoy, like a stranger.
    const ok = await verifyPassword(usable && row.password_hash !== '' ? row.password_hash : null, password);
    if (!ok || !usable) {
      await this.throttle.failed(db, account, address);
      throw invalidCredentials();
    }
    if (!this.passwordSignIn && row.role !== 'owner') {
      throw new DomainError('forbidden', 'Password sign-in is turned off here: use Sign in with SSO.');
    }
    await this.throttle.succeeded(db, account);
    return { user: toUser(row), sessionId: await this.startSession(db, row.id) };
  }

  /**
   * The person behind a session cookie, or null when the session is unknown, expired or the person is
   * deactivated. Extends the session (sliding expiry).
   */
  async authenticate(sessionId: string): Promise<{ actor: Actor; user: UserRow; extended: boolean } | null> {
    if (sessionId.length === 0 || sessionId.length > 200) return null;
    const db = this.deps.database.kysely;
    const idHash = hashSessionId(sessionId);
    const found = await findSessionWithUser(db, idHash);
    if (!found) return null;
    const now = this.deps.clock.now();
    if (Date.parse(found.session.expires_at) <= now || found.user.active !== 1) {
      await deleteSession(db, idHash);
      return null;
    }
    const extended = now - Date.parse(found.session.last_seen_at) >= TOUCH_INTERVAL_MS;
    if (extended) {
      await touchSession(
        db,
        idHash,
        new Date(now).toISOString(),
        new Date(now + this.sessionTtlMs).toISOString(),
      );
    }
    return { actor: userActor(found.user), user: found.user, extended };
  }

  /**
   * Whether a session is still signed in (known, unexpired, person active), without extending it: the
   * live board stream re-checks with this, and an open tab alone must not keep a session alive.
   */
  async isSignedIn(sessionId: string): Promise<boolean> {
    if (sessionId.length === 0 || sessionId.length > 200) return false;
    const found = await findSessionWithUser(this.deps.database.kysely, hashSessionId(sessionId));
    if (!found) return false;
    return Date.parse(found.session.expires_at) > this.deps.clock.now() && found.user.active === 1;
  }

  async signOut(sessionId: string): Promise<void> {
    await deleteSession(this.deps.database.kysely, hashSessionId(sessionId));
  }

  /** Starts a session for a person (after sign-in, setup, an accepted invite or a password change). */
  async startSession(db: Executor, userId: string): Promise<string> {
    const sessionId = randomString(43);
    const now = this.deps.clock.now();
    await insertSession(db, {
      id_hash: hashSessionId(sessionId),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.sessionTtlMs).toISOString(),
    });
    // Expired sessions are removed as new ones start, so the table does not grow without bound.
    await deleteExpiredSessions(db, new Date(now).toISOString());
    return sessionId;
  }

  async endSessionsOf(db: Executor, userId: string): Promise<void> {
    await deleteSessionsOfUser(db, userId);
  }

  /** Validates a new person's fields and hashes the password (outside any transaction: it is slow). */
  async newUserRow(input: NewPerson, role: UserRow['role']): Promise<UserRow> {
    const email = checkEmail(input.email);
    const name = requiredText('name', input.name, LIMITS.authorName);
    checkNewPassword(input.password);
    const now = isoNow(this.deps.clock);
    return {
      id: newId('usr'),
      email,
      email_key: emailKey(email),
      name,
      password_hash: await hashPassword(input.password),
      role,
      active: 1,
      created_at: now,
      updated_at: now,
    };
  }
}
