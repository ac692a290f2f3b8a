import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveMasterKey } from '../../src/lib/master-key.js';
import { SecretBox } from '../../src/lib/secret-box.js';

const MASTER = 'unit-test-master-key-0123456789abcdef-xyz';

/** Flips one bit of a base64url part of a sealed secret. */
function tamper(sealed: string, part: 1 | 2 | 3): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part] as string, 'base64url');
  bytes[0] = (bytes[0] as number) ^ 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  const box = new SecretBox(MASTER);

  it('round-trips secrets, including non-ASCII text and the empty string', () => {
    for (const secret of ['ak_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', 'whsec_ünïcødé ✓', '']) {
      expect(box.decrypt(box.encrypt(secret))).toBe(secret);
    }
  });

  it('never stores the plaintext and seals the same secret differently each time (random IV)', () => {
    const secret = 'ak_sameSecretTwice0123456789';
    const a = box.encrypt(secret);
    const b = box.encrypt(secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(a.split('.')[0]).toBe('v1');
  });

  it('detects tampering with the IV, the tag or the ciphertext', () => {
    const sealed = box.encrypt('ak_tamperMe0123456789');
    for (const part of [1, 2, 3] as const) {
      expect(() => box.decrypt(tamper(sealed, part))).toThrow();
    }
  });

  it('cannot open a secret sealed with another master key', () => {
    const other = new SecretBox(`${MASTER}-other`);
    expect(() => other.decrypt(box.encrypt('ak_secret0123456789'))).toThrow();
  });

  it('rejects text that is not a sealed secret', () => {
    for (const bad of ['', 'plain', 'v2.a.b.c', 'v1.a.b']) {
      expect(() => box.decrypt(bad)).toThrow(/format/);
    }
  });

  it('derives a stable lookup hash per master key that differs from the plaintext', () => {
    const key = 'ak_lookupMe0123456789abcdef';
    const hash = box.lookupHash(key);
    expect(new SecretBox(MASTER).lookupHash(key)).toBe(hash);
    expect(hash).not.toContain(key);
    expect(box.lookupHash(`${key}x`)).not.toBe(hash);
    expect(new SecretBox(`${MASTER}-other`).lookupHash(key)).not.toBe(hash);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('resolveMasterKey', () => {
  const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-key-'));

  it('generates secret.key (mode 0600) on first use and reads the same key afterwards', () => {
    const dir = path.join(tempDir(), 'not-yet-created');
    const key = resolveMasterKey(null, dir);
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(resolveMasterKey(null, dir)).toBe(key);
    expect(resolveMasterKey(null, tempDir())).not.toBe(key);
  });

  it('uses the configured key and then writes no file', () => {
    const dir = tempDir();
    expect(resolveMasterKey(MASTER, dir)).toBe(MASTER);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses an emptied or truncated key file instead of silently using another key', () => {
    const dir = tempDir();
    for (const content of ['', '\n', 'short\n']) {
      fs.writeFileSync(path.join(dir, 'secret.key'), content, { mode: 0o600 });
      expect(() => resolveMasterKey(null, dir)).toThrow(/secret\.key/);
    }
  });
});
