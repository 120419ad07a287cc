// Secrets (API keys) are stored only encrypted, through a SecretBox. Electron: safeStorage (the OS
// keychain). Tests and hosts without Electron: AES-256-GCM with a key they provide.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SecretBox {
  /** False when the system offers no protected storage: secrets must then not be persisted. */
  isAvailable(): boolean;
  encrypt(plainText: string): Buffer;
  /** Throws when the data was not produced by this box (another machine, another key). */
  decrypt(encrypted: Buffer): string;
}

const VERSION = 1;

/** AES-256-GCM: [version][12-byte nonce][16-byte tag][ciphertext]. */
export function createAesGcmSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('An AES-256-GCM secret box needs a 32-byte key.');
  return {
    isAvailable: () => true,
    encrypt(plainText) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
    },
    decrypt(encrypted) {
      if (encrypted.length < 29 || encrypted[0] !== VERSION) throw new Error('Not an encrypted secret of this box.');
      const decipher = createDecipheriv('aes-256-gcm', key, encrypted.subarray(1, 13));
      decipher.setAuthTag(encrypted.subarray(13, 29));
      return Buffer.concat([decipher.update(encrypted.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}
