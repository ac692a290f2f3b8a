import { invalid } from '../errors.js';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * Passwords of 10 or more characters that top the published breach lists (the shorter ones are already
 * refused by the length rule). Compared case-insensitively.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '1234567890',
  '12345678910',
  '0123456789',
  '0987654321',
  '1111111111',
  '0000000000',
  '1234512345',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'qwertyuiop',
  'qwerty1234',
  'qwerty12345',
  'qwerty123456',
  'asdfghjkl1',
  'zxcvbnm123',
  'password12',
  'password123',
  'password1234',
  'password!1',
  'passw0rd123',
  'iloveyou12',
  'iloveyou123',
  'football123',
  'baseball123',
  'letmein123',
  'welcome123',
  'welcome1234',
  'changeme123',
  'administrator',
  'admin12345',
  'admin123456',
  'princess123',
  'sunshine123',
  'superman123',
  'monkey12345',
  'dragon12345',
  'trustno1234',
  'laneboard123',
  'aaaaaaaaaa',
  'abcdefghij',
  'abc1234567',
  'abcd123456',
  'a1b2c3d4e5',
]);

/** Length and common-password rules; the message names the field the form shows it under. */
export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw invalid(field, `must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw invalid(field, `must be at most ${PASSWORD_MAX_LENGTH} characters long.`);
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    throw invalid(field, 'is too common: choose a password that is harder to guess.');
  }
}

/** The native argon2 binding, loaded when a password is first hashed or checked, not by every process. */
const argon2 = () => import('@node-rs/argon2');

/** Argon2id with the library's defaults (OWASP's recommended parameters). */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password);
}

// A real hash for unknown emails, so a sign-in takes as long whether or not the email exists.
let decoyHash: Promise<string> | null = null;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  const { hash, verify } = await argon2();
  if (storedHash === null) {
    decoyHash ??= hash('laneboard decoy password');
    await verify(await decoyHash, password);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
