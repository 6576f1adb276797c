import { describe, expect, it } from 'vitest'
import { plainAddress, resolveClientAddress, trustedProxyList } from '../../supabase/local/client-address'

const none = trustedProxyList([])
const proxies = trustedProxyList(['10.0.0.0/8', '192.0.2.10', 'fd00::/8'])

describe('the client address', () => {
  it("is the socket's peer when the peer is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress('127.0.0.1', '203.0.113.66', none)).toBe('127.0.0.1')
    expect(resolveClientAddress('::ffff:127.0.0.1', '203.0.113.66, 10.0.0.1', none)).toBe('127.0.0.1')
    expect(resolveClientAddress('198.51.100.4', '203.0.113.66', proxies)).toBe('198.51.100.4')
    expect(resolveClientAddress(undefined, '203.0.113.66', proxies)).toBeNull()
  })

  it('behind trusted proxies, is the right-most X-Forwarded-For entry that is not one of them', () => {
    expect(resolveClientAddress('10.1.2.3', '203.0.113.66, 198.51.100.4', proxies)).toBe('198.51.100.4')
    expect(resolveClientAddress('10.1.2.3', '203.0.113.66, 198.51.100.4, 192.0.2.10, 10.9.9.9', proxies)).toBe('198.51.100.4')
    expect(resolveClientAddress('fd12::1', '2001:DB8::5', proxies)).toBe('2001:db8::5')
    expect(resolveClientAddress('192.0.2.10', '[2001:db8::5]:4711', proxies)).toBe('2001:db8::5')
    expect(resolveClientAddress('192.0.2.10', '198.51.100.4:4711', proxies)).toBe('198.51.100.4')
  })

  it('behind trusted proxies, stops at the last address vouched for when a hop passed on something else or nothing', () => {
    expect(resolveClientAddress('10.1.2.3', undefined, proxies)).toBe('10.1.2.3')
    expect(resolveClientAddress('10.1.2.3', '', proxies)).toBe('10.1.2.3')
    expect(resolveClientAddress('10.1.2.3', '198.51.100.4, not an ip', proxies)).toBe('10.1.2.3')
    expect(resolveClientAddress('10.1.2.3', 'not an ip, 10.0.0.7', proxies)).toBe('10.0.0.7')
    expect(resolveClientAddress('10.1.2.3', '10.0.0.8, 10.0.0.7', proxies)).toBe('10.0.0.8')
  })

  it('reads addresses as headers and Node write them, and refuses anything else', () => {
    expect(plainAddress(' 198.51.100.4 ')).toBe('198.51.100.4')
    expect(plainAddress('::FFFF:198.51.100.4')).toBe('198.51.100.4')
    expect(plainAddress('[::1]')).toBe('::1')
    for (const junk of ['', 'unknown', '198.51.100.256', '1.2.3.4.5', '::1::2', "1.2.3.4'; drop table x"]) expect(plainAddress(junk), junk).toBeNull()
  })
})

describe('the trusted proxies option', () => {
  it('takes addresses and CIDR blocks of both families', () => {
    const list = trustedProxyList(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '::ffff:192.0.2.1'])
    expect(list.check('10.200.0.1', 'ipv4')).toBe(true)
    expect(list.check('11.0.0.1', 'ipv4')).toBe(false)
    expect(list.check('fd99::1', 'ipv6')).toBe(true)
    expect(list.check('192.0.2.1', 'ipv4')).toBe(true)
  })

  it('refuses entries that are not an address or a block, naming them', () => {
    for (const entry of ['proxy.example.com', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8/8', '::/129', '10.0.0.0/-1', '']) {
      expect(() => trustedProxyList([entry]), entry).toThrow(`Invalid trusted proxy ${JSON.stringify(entry)}`)
    }
  })
})
