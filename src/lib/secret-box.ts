import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts stored secrets (API keys, webhook secrets) with AES-256-GCM and derives lookup hashes,
 * both from one master key. Separate sub-keys are derived with HKDF so the lookup hash never
 * reveals anything about the encryption key.
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly lookupKey: Buffer;

  constructor(masterKey: string) {
    const ikm = Buffer.from(masterKey, 'utf8');
    this.encryptionKey = Buffer.from(hkdfSync('sha256', ikm, 'laneboard', 'encryption-v1', 32));
    this.lookupKey = Buffer.from(hkdfSync('sha256', ikm, 'laneboard', 'lookup-v1', 32));
  }

  /** Format: v1.<iv>.<tag>.<ciphertext>, each part base64url. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || data === undefined) {
      throw new Error('Unrecognised sealed secret format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Keyed hash used to find a presented secret without storing it in plaintext. */
  lookupHash(plaintext: string): string {
    return createHmac('sha256', this.lookupKey).update(plaintext, 'utf8').digest('base64url');
  }
}
