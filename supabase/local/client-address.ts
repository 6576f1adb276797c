import type { IncomingMessage } from 'node:http'
import { BlockList, isIPv4, isIPv6 } from 'node:net'
import { header } from './http'

/*
 * Who is calling: the one client address that every API of this server uses, for the audit trail (the database
 * reads it from request.headers in private.request_ip), for the sign-in limiter and for auth sessions.
 *
 * Any header can be written by the client, so an address is worth what the hop that wrote it is worth.
 *
 * Hosted Supabase: client → Cloudflare → the platform's gateway → PostgREST or GoTrue. Cloudflare sets
 * CF-Connecting-IP to the peer it saw, replacing whatever the client sent; the gateway appends the address of its
 * own peer to X-Forwarded-For, after whatever the client wrote there. So the database believes CF-Connecting-IP,
 * else only the right-most X-Forwarded-For entry, and never X-Real-IP, which nothing in the chain vouches for.
 *
 * Here: this server is that platform gateway, the last hop before the database. It passes on none of the headers
 * by which a client claims an address (CF-Connecting-IP, X-Real-IP, True-Client-IP, Forwarded), and replaces
 * X-Forwarded-For with a single entry, the address it determined itself: a single entry reads the same from
 * either end, so whichever end the database trusts, it gets that address.
 *
 * The address it determines is the socket's peer, unless the peer is one of the configured trusted proxies (a
 * load balancer or reverse proxy put in front of this server, which appends its peer to X-Forwarded-For). Then
 * each trusted hop vouches for the entry it appended: the list is read from the right, passing over trusted
 * hops, and the first address that is not one is the client. Entries further left were written by the client
 * or by hops nobody vouches for, and are dropped. With no trusted proxy, which is the default, X-Forwarded-For
 * from the client is never read.
 */

/** Headers through which a client would claim an address of its choice. */
const CLAIMED_ADDRESS_HEADERS = ['cf-connecting-ip', 'x-real-ip', 'true-client-ip', 'forwarded']

/**
 * The lists built with no entry, the default: their check is skipped, since BlockList.check builds a SocketAddress from
 * the text at every call (about 0.05 ms a request, 3 % of the server's time with 50 reviewers deciding at once).
 */
const emptyLists = new WeakSet<BlockList>()

/** The trusted proxies' addresses and blocks, from entries such as "10.0.0.5", "10.0.0.0/8" or "fd00::/8". */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  if (entries.length === 0) emptyLists.add(list)
  for (const entry of entries) {
    const [text = '', prefix, ...rest] = entry.trim().split('/')
    const address = plainAddress(text)
    const family = address && isIPv4(address) ? 'ipv4' : 'ipv6'
    const bits = prefix !== undefined && /^\d{1,3}$/.test(prefix) ? Number(prefix) : undefined
    if (!address || rest.length > 0 || (prefix !== undefined && (bits === undefined || bits > (family === 'ipv4' ? 32 : 128)))) {
      throw new Error(`Invalid trusted proxy ${JSON.stringify(entry)}: expected an IP address or a CIDR block`)
    }
    if (bits === undefined) list.addAddress(address, family)
    else list.addSubnet(address, bits, family)
  }
  return list
}

/** An address as written in a header or by Node, or null: brackets and port removed, IPv4-mapped IPv6 as IPv4. */
export function plainAddress(value: string): string | null {
  let text = value.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) text = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'))
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text)
  if (mapped) text = mapped[1]!
  if (isIPv4(text)) return text
  if (isIPv6(text)) return text.toLowerCase()
  return null
}

/** The client's address from the socket's peer and the X-Forwarded-For it received, per the rules above. */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: BlockList): string | null {
  let client = peer === undefined ? null : plainAddress(peer)
  if (client === null || !isTrusted(trusted, client)) return client
  const hops = (forwardedFor ?? '').split(',')
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = plainAddress(hops[i]!)
    // A trusted hop passed on something that is not an address: the last address vouched for is all there is.
    if (address === null) break
    client = address
    if (!isTrusted(trusted, address)) break
  }
  return client
}

function isTrusted(trusted: BlockList, address: string): boolean {
  if (emptyLists.has(trusted)) return false
  return trusted.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')
}

const resolved = new WeakMap<IncomingMessage, string | null>()

/** Determines the request's client address and rewrites its forwarding headers accordingly, before any API sees it. */
export function forwardClientAddress(req: IncomingMessage, trusted: BlockList): void {
  const address = resolveClientAddress(req.socket.remoteAddress, header(req, 'x-forwarded-for'), trusted)
  for (const name of CLAIMED_ADDRESS_HEADERS) delete req.headers[name]
  if (address === null) delete req.headers['x-forwarded-for']
  else req.headers['x-forwarded-for'] = address
  resolved.set(req, address)
}

/** The address forwardClientAddress determined; null when the socket had none (already closed). */
export function clientAddress(req: IncomingMessage): string | null {
  const address = resolved.get(req)
  if (address === undefined) throw new Error('clientAddress called on a request the server has not resolved')
  return address
}
