// Where the key may go: https://, or http:// to this computer (the simulator).
// A table of good addresses and hostile look-alikes.
import { describe, expect, it } from 'vitest';
import { checkApiBaseUrl, DEFAULT_API_ORIGIN, isLoopbackHost, MAX_BASE_URL_LENGTH } from '../../../shared/api-origin';
import { DEFAULT_BASE_URL } from '../../../shared/domain';

describe('checkApiBaseUrl accepts', () => {
  it.each([
    // [input, normal form, origin]
    [DEFAULT_BASE_URL, 'https://api.trakkr.ai', 'https://api.trakkr.ai'],
    ['https://api.trakkr.ai/', 'https://api.trakkr.ai', 'https://api.trakkr.ai'],
    ['https://api.trakkr.ai:443', 'https://api.trakkr.ai', 'https://api.trakkr.ai'],
    ['HTTPS://API.Trakkr.AI', 'https://api.trakkr.ai', 'https://api.trakkr.ai'],
    ['https://proxy.example.com:8443/trakkr/', 'https://proxy.example.com:8443/trakkr', 'https://proxy.example.com:8443'],
    ['https://203.0.113.7', 'https://203.0.113.7', 'https://203.0.113.7'],
    ['https://127.0.0.1.example.com', 'https://127.0.0.1.example.com', 'https://127.0.0.1.example.com'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://127.255.0.9:1', 'http://127.255.0.9:1', 'http://127.255.0.9:1'],
    ['http://localhost:8787/', 'http://localhost:8787', 'http://localhost:8787'],
    ['HTTP://LOCALHOST', 'http://localhost', 'http://localhost'],
    ['http://[::1]:8787', 'http://[::1]:8787', 'http://[::1]:8787'],
    ['https://localhost', 'https://localhost', 'https://localhost'],
  ])('%s', (input, url, origin) => {
    expect(checkApiBaseUrl(input)).toEqual({ ok: true, url, origin });
  });
  it('the default origin is the default base URL', () => {
    expect(DEFAULT_API_ORIGIN).toBe('https://api.trakkr.ai');
  });
});

describe('checkApiBaseUrl refuses, in plain words', () => {
  it.each([
    // [input, words the reason must contain]
    ['', 'empty'],
    ['api.trakkr.ai', 'must start with https://'],
    ['//api.trakkr.ai', 'must start with https://'],
    ['ftp://api.trakkr.ai', 'starts with ftp:'],
    ['javascript:alert(1)', 'starts with javascript:'],
    ['file:///etc/passwd', 'starts with file:'],
    ['ws://127.0.0.1:8787', 'starts with ws:'],
    ['data:text/plain,x', 'starts with data:'],
    ['https:api.trakkr.ai', 'must have // after https:'],
    ['https:///api.trakkr.ai', 'no host'],
    // http to anywhere but this computer
    ['http://example.com', 'allowed only for this computer'],
    ['http://api.trakkr.ai', 'Use https://api.trakkr.ai instead'],
    ['http://127.0.0.1.evil.com', 'allowed only for this computer'],
    ['http://localhost.evil.com', 'allowed only for this computer'],
    ['http://evil.localhost', 'allowed only for this computer'],
    ['http://0.0.0.0:8787', 'allowed only for this computer'],
    ['http://10.0.0.1', 'allowed only for this computer'],
    ['http://[::2]', 'allowed only for this computer'],
    // other spellings of the loopback address: what is read must be what is used
    ['http://0x7f000001', 'plainly (it reads as 127.0.0.1)'],
    ['http://2130706433', 'plainly (it reads as 127.0.0.1)'],
    ['http://127.1', 'plainly (it reads as 127.0.0.1)'],
    ['http://0177.0.0.1', 'plainly (it reads as 127.0.0.1)'],
    ['http://[::ffff:127.0.0.1]', 'plainly'],
    ['http://[0:0:0:0:0:0:0:1]', 'plainly (it reads as [::1])'],
    ['http://%6c%6fcalhost', 'without %-escapes'],
    ['https://аpi.trakkr.ai', 'plainly (it reads as xn--'],
    // trailing dots
    ['https://api.trakkr.ai.', 'dot at the end'],
    ['http://localhost.:8787', 'dot at the end'],
    ['http://127.0.0.1.', 'dot at the end'],
    // credentials in the address
    ['https://user:pw@api.trakkr.ai', 'user name or password'],
    ['https://user@api.trakkr.ai', 'user name or password'],
    ['https://@api.trakkr.ai', 'user name or password'],
    ['https://api.trakkr.ai@evil.com', 'user name or password'],
    ['http://127.0.0.1:8787@evil.com', 'user name or password'],
    ['https://api.trakkr.ai?key=sk_live_' + 'A'.repeat(32), 'query'],
    ['https://api.trakkr.ai/?', 'query'],
    ['https://api.trakkr.ai/#token', 'fragment'],
    ['https://api.trakkr.ai#', 'fragment'],
    ['https://api.trakkr.ai/sk_live_' + 'A'.repeat(32), 'must not contain an API key'],
    ['https://api.trakkr.ai/v1;jsessionid=abc', 'path with characters other than'],
    ['https://api.trakkr.ai/a%2Fb', 'path with characters other than'],
    ['https://api.trakkr.ai/x/../y', '. or .. in its path'],
    // tricks the URL parser would forgive
    ['https://evil.com\\@api.trakkr.ai', 'backslash'],
    [' https://api.trakkr.ai', 'spaces or control characters'],
    ['https://api.trakkr.ai\n', 'spaces or control characters'],
    ['https://api.tr\takkr.ai', 'spaces or control characters'],
    ['https://api.trakkr.ai:', 'port that is not a number'],
    ['https://api.trakkr.ai:99999', 'not a valid web address'],
    ['https://[::1', 'unclosed ['],
    ['https://' + 'a'.repeat(MAX_BASE_URL_LENGTH), 'longer than 500 characters'],
  ])('%s', (input, words) => {
    const r = checkApiBaseUrl(input);
    expect(r.ok, input).toBe(false);
    if (!r.ok) {
      expect(r.reason).toContain(words);
      expect(r.reason).toMatch(/^[A-Zh].*\.$/s);
      expect(r.reason).not.toContain('sk_live_A');
      expect(r.reason).not.toContain(':pw');
    }
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['127.0.0.0', true],
    ['127.255.255.255', true],
    ['[::1]', true],
    ['::1', true],
    ['localhost.', false],
    ['localhost.evil.com', false],
    ['evil.localhost', false],
    ['127.0.0.1.evil.com', false],
    ['127.0.0.256', false],
    ['127.0.0', false],
    ['127.00.0.1', false],
    ['0x7f000001', false],
    ['2130706433', false],
    ['128.0.0.1', false],
    ['0.0.0.0', false],
    ['[::ffff:127.0.0.1]', false],
    ['[::ffff:7f00:1]', false],
    ['', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
