import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSigningSecret, UrlSigner } from '../../../../src-server/signing/url-signer.js';

const parse = (path: string) => {
  const url = new URL(path, 'http://x');
  return {
    id: decodeURIComponent(url.pathname.split('/').at(-1)!),
    expires: url.searchParams.get('expires')!,
    signature: url.searchParams.get('signature')!,
  };
};

describe('UrlSigner', () => {
  const now = 1_700_000_000_000;
  const signer = new UrlSigner(Buffer.from('secret'), () => now);

  const at = (ms: number) => new UrlSigner(Buffer.from('secret'), () => now + ms);

  it('verifies its own URLs for at least the TTL, and at most a tenth longer', () => {
    const { path, expiresAt } = signer.sign('upload', 'abc', 60);
    const { id, expires, signature } = parse(path);
    expect(signer.verify('upload', id, expires, signature)).toBe('valid');
    expect(at(59_000).verify('upload', id, expires, signature)).toBe('valid');
    expect(at(66_001).verify('upload', id, expires, signature)).toBe('expired');
    expect(expiresAt.getTime() - now).toBeGreaterThanOrEqual(60_000);
    expect(expiresAt.getTime() - now).toBeLessThanOrEqual(66_000);
  });

  it('gives the same URL for the same resource within an expiry bucket', () => {
    expect(at(1000).sign('audio', 'x', 3600).path).toBe(signer.sign('audio', 'x', 3600).path);
  });

  it('rejects another purpose, id, expiry or secret', () => {
    const { id, expires, signature } = parse(signer.sign('audio', 'abc', 60).path);
    expect(signer.verify('upload', id, expires, signature)).toBe('invalid');
    expect(signer.verify('audio', 'abd', expires, signature)).toBe('invalid');
    expect(signer.verify('audio', id, String(Number(expires) + 1), signature)).toBe('invalid');
    expect(new UrlSigner(Buffer.from('other'), () => now).verify('audio', id, expires, signature)).toBe('invalid');
    expect(signer.verify('audio', id, undefined, signature)).toBe('invalid');
    expect(signer.verify('audio', id, expires, undefined)).toBe('invalid');
  });
});

describe('loadSigningSecret', () => {
  it('uses the configured secret, else one random secret kept in the data dir', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-signing-'));
    try {
      expect(loadSigningSecret(dataDir, { secret: 'shared' }).toString()).toBe('shared');
      expect(fs.existsSync(path.join(dataDir, 'signing.key'))).toBe(false);
      const generated = loadSigningSecret(dataDir);
      expect(generated.length).toBe(32);
      expect(fs.statSync(path.join(dataDir, 'signing.key')).mode & 0o777).toBe(0o600);
      expect(loadSigningSecret(dataDir, {}).equals(generated)).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
