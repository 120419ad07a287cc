// The words of main's "switch to this server?" dialog (decision 0046): the full address is shown, and
// Cancel is the second button (main makes it the default), in English and Japanese.
import { describe, expect, it } from 'vitest';
import { serverConsentText } from '../../../../src-main/server-consent.js';

describe('server consent text', () => {
  const server = { name: 'Team server', baseUrl: 'https://kikitori.example.com:8443/base' };

  it('shows the server’s full address and what will be sent, in either language', () => {
    const en = serverConsentText(server, 'en');
    expect(en.message).toBe('Switch to “Team server”?');
    expect(en.detail).toContain('https://kikitori.example.com:8443/base');
    expect(en.detail).toContain('API key');
    expect(en.buttons).toEqual(['Switch', 'Cancel']);
    const ja = serverConsentText(server, 'ja');
    expect(ja.message).toBe('「Team server」に切り替えますか？');
    expect(ja.detail).toContain('https://kikitori.example.com:8443/base');
    expect(ja.buttons).toEqual(['切り替える', 'キャンセル']);
  });
});
