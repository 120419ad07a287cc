// HMAC-signed, expiring URLs for uploads and downloads, which carry no API key.
// Expiry times are rounded up to a bucket, so the same resource gets the same URL for a while:
// signatures can be cached (lists sign two URLs per item) and clients can cache by URL.
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SigningConfig } from '../config.js';

export type SignedPurpose = 'upload' | 'audio' | 'transcript';
export type Verification = 'valid' | 'invalid' | 'expired';

const MAX_CACHED_SIGNATURES = 50_000;

export class UrlSigner {
  private readonly cache = new Map<string, string>();

  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** Path and query of a URL valid for at least `ttlSeconds` (and at most a tenth longer, up to 5 min). */
  sign(purpose: SignedPurpose, id: string, ttlSeconds: number): { path: string; expiresAt: Date } {
    const bucket = Math.max(1, Math.min(300, Math.floor(ttlSeconds / 10)));
    const expires = Math.ceil((Math.floor(this.now() / 1000) + ttlSeconds) / bucket) * bucket;
    const signature = this.mac(purpose, id, expires);
    return {
      path: `/files/${purpose}/${encodeURIComponent(id)}?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000),
    };
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
    const message = `${purpose}\n${id}\n${expires}`;
    let signature = this.cache.get(message);
    if (signature === undefined) {
      // 128 bits of HMAC-SHA256 (NIST SP 800-107 allows truncation): as strong against forgery, half the URL length.
      signature = createHmac('sha256', this.secret).update(message).digest().subarray(0, 16).toString('base64url');
      if (this.cache.size >= MAX_CACHED_SIGNATURES) this.cache.clear();
      this.cache.set(message, signature);
    }
    return signature;
  }
}

/**
 * The signing secret: the configured one (KIKITORI_SIGNING_SECRET), else a random one kept in the data
 * dir (mode 0600). Processes that verify each other's URLs need the same secret.
 */
export function loadSigningSecret(dataDir: string, signing: SigningConfig = {}): Buffer {
  if (signing.secret) return Buffer.from(signing.secret);
  const file = path.join(dataDir, 'signing.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
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
