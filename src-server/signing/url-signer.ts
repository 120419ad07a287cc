// HMAC-signed, expiring URLs for uploads and downloads, which carry no API key.
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type SignedPurpose = 'upload' | 'audio' | 'transcript';
export type Verification = 'valid' | 'invalid' | 'expired';

export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** Path and query of a signed URL, relative to the server's base URL. */
  sign(purpose: SignedPurpose, id: string, ttlSeconds: number): { path: string; expiresAt: Date } {
    const expires = Math.floor(this.now() / 1000) + ttlSeconds;
    const signature = this.mac(purpose, id, expires);
    return { path: `/files/${purpose}/${encodeURIComponent(id)}?expires=${expires}&signature=${signature}`, expiresAt: new Date(expires * 1000) };
  }

  verify(purpose: SignedPurpose, id: string, expires: unknown, signature: unknown): Verification {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
    const expected = Buffer.from(this.mac(purpose, id, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    // Checked after the signature so a forged URL never learns anything from the expiry.
    return Number(expires) * 1000 < this.now() ? 'expired' : 'valid';
  }

  private mac(purpose: SignedPurpose, id: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${purpose}\n${id}\n${expires}`).digest('base64url');
  }
}

/** The signing secret: KIKITORI_SIGNING_SECRET, else a random one kept in the data dir (mode 0600). */
export function loadSigningSecret(dataDir: string, env: Record<string, string | undefined> = process.env): Buffer {
  if (env.KIKITORI_SIGNING_SECRET) return Buffer.from(env.KIKITORI_SIGNING_SECRET);
  const file = path.join(dataDir, 'signing.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32);
    // 'wx' fails if another process created it first; then read theirs.
    try {
      fs.writeFileSync(file, secret.toString('base64'), { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    }
  }
}
