import { describe, expect, it } from 'vitest';
import { UrlSigner } from '../../../../src-server/signing/url-signer.js';

const parse = (path: string) => {
  const url = new URL(path, 'http://x');
  return { id: decodeURIComponent(url.pathname.split('/').at(-1)!), expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! };
};

describe('UrlSigner', () => {
  const now = 1_700_000_000_000;
  const signer = new UrlSigner(Buffer.from('secret'), () => now);

  it('verifies its own URLs until they expire', () => {
    const { path } = signer.sign('upload', 'abc', 60);
    const { id, expires, signature } = parse(path);
    expect(signer.verify('upload', id, expires, signature)).toBe('valid');
    const later = new UrlSigner(Buffer.from('secret'), () => now + 61_000);
    expect(later.verify('upload', id, expires, signature)).toBe('expired');
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
