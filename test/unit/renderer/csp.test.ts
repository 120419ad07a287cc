import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../src-main/content-security-policy';
import html from '../../../src-renderer/index.html?raw';

describe('content security policy', () => {
  it('is the same in the session header and the page meta tag, and forbids eval and inline scripts', () => {
    const meta = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
    const scriptSrc = CONTENT_SECURITY_POLICY.split('; ').find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
  });
});
