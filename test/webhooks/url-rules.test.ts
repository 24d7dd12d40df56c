// The URL rules of §11 at their edges: every spelling of a non-global address that a WHATWG URL
// parser accepts is refused, and public hosts pass.
import { describe, expect, it } from 'vitest';
import { webhookUrlProblem } from '../../src/modules/webhooks/url-rules';

const HOSTILE = [
  'http://hooks.example.com/', // not https
  'ftp://hooks.example.com/',
  'https://user:pass@hooks.example.com/', // credentials
  'https://token@hooks.example.com/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'https://127.0.0.1/',
  'https://127.1/', // short form
  'https://2130706433/', // decimal
  'https://0x7f000001/', // hex
  'https://0177.0.0.1/', // octal
  'https://0x7f.0.0.1/',
  'https://0/', // 0.0.0.0
  'https://10.0.0.1/',
  'https://172.16.5.4/',
  'https://192.168.1.1/',
  'https://169.254.169.254/', // cloud metadata, link-local
  'https://100.64.0.1/', // CGNAT
  'https://224.0.0.1/', // multicast
  'https://255.255.255.255/',
  'https://240.0.0.1/', // reserved
  'https://192.0.2.10/', // documentation
  'https://198.51.100.7/',
  'https://203.0.113.9/',
  'https://198.18.0.1/', // benchmarking
  'https://192.0.0.8/', // IETF protocol assignments
  'https://[::1]/',
  'https://[::]/',
  'https://[fe80::1]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://[ff02::1]/',
  'https://[::ffff:127.0.0.1]/', // IPv4-mapped
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::127.0.0.1]/', // IPv4-compatible
  'https://[64:ff9b::10.0.0.1]/', // NAT64 over a private address
  'https://[64:ff9b::7f00:1]/',
  'https://[64:ff9b:1::1.2.3.4]/', // local-use NAT64
  'https://[2001:db8::1]/', // documentation
  'https://[100::1]/', // discard
  'https://[2002:7f00:1::1]/', // 6to4
  'https://[2001::1]/', // Teredo
  'https://intranet/', // a bare name: not a public host
  'not a url',
];

const PUBLIC = [
  'https://hooks.example.com/webhooks',
  'https://hooks.example.com:8443/a?b=c',
  'https://8.8.8.8/',
  'https://1.1.1.1/hook',
  'https://[2606:4700:4700::1111]/',
  'https://[64:ff9b::808:808]/', // NAT64 over a public address
  'https://[::ffff:8.8.8.8]/',
];

describe('webhook URL rules', () => {
  it.each(HOSTILE)('refuses %s', (url) => {
    expect(webhookUrlProblem(url, [])).not.toBeNull();
  });

  it.each(PUBLIC)('accepts %s', (url) => {
    expect(webhookUrlProblem(url, [])).toBeNull();
  });

  it('lets WEBHOOK_ALLOWED_HOSTS exempt exact hosts, over http too, and nothing else', () => {
    expect(webhookUrlProblem('http://127.0.0.1:9000/hooks', ['127.0.0.1'])).toBeNull();
    expect(webhookUrlProblem('http://localhost:9000/hooks', ['localhost'])).toBeNull();
    expect(webhookUrlProblem('http://[::1]:9000/', ['::1'])).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.2:9000/', ['127.0.0.1'])).not.toBeNull();
    expect(webhookUrlProblem('ftp://127.0.0.1/', ['127.0.0.1'])).not.toBeNull();
    expect(webhookUrlProblem('https://user:pw@127.0.0.1/', ['127.0.0.1'])).not.toBeNull();
  });

  it('holds at least 30 hostile spellings', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });
});
