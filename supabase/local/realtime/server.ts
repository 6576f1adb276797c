import http, { type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { forwardClientAddress, trustedProxyList } from '../client-address'
import type { ApiContext } from '../context'
import { header, headersForPostgres } from '../http'
import { isApiKey } from '../keys'
import { BroadcastDispatcher } from './broadcast-dispatcher'
import { BROADCASTS_CHANNEL, installBroadcasts } from './broadcasts'
import { CHANGES_CHANNEL, CaptureScope, installCapture } from './capture'
import { Catalog } from './catalog'
import { Hub } from './channel'
import { Connection } from './connection'
import { Dispatcher } from './dispatcher'
import { VSNS, type Vsn } from './protocol'

const PATH = '/realtime/v1/websocket'
// Realtime's own frames are small; this bounds what one client message may make the server hold.
const MAX_FRAME_BYTES = 1024 * 1024

/** Answers an upgrade request with a plain HTTP error, as the gateway would, and drops the socket. */
function refuse(socket: Duplex, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  )
}

/**
 * The Supabase Realtime-compatible /realtime/v1/websocket: Phoenix channels (vsn 1.0.0 and 2.0.0) carrying
 * postgres_changes, captured by triggers this server installs and delivered only to subscribers whose
 * row-level security lets them read the row; client broadcasts; and broadcasts from the database (realtime.send),
 * on public channels or on private ones authorized by the policies on realtime.messages.
 */
export async function startRealtime(context: ApiContext, server: http.Server): Promise<{ close(): Promise<void> }> {
  const { db, config } = context
  const published = await installCapture(db)
  const scope = new CaptureScope(db, published, () => hub.listening())
  const hub: Hub = new Hub(() => scope.refresh())
  const catalog = new Catalog(db)
  const dispatcher = new Dispatcher(db, catalog, hub)
  const unlisten = await db.listen(CHANGES_CHANNEL, (txid) => dispatcher.notify(txid))
  // Broadcasts are read on connections of their own (one listening, one taking), as hosted Realtime reads its
  // messages: waiting in the API's pool behind a burst of requests delayed every delivery.
  const broadcastsDb = db.separate(2)
  // On PGlite, a take per decision cost the decisions about a sixth more of the database's time than a take every
  // 20 ms, which delivers within 30 ms.
  const broadcasts = new BroadcastDispatcher(broadcastsDb, hub, db.kind === 'pglite' ? 20 : 0)
  const unlistenBroadcasts = (await installBroadcasts(db))
    ? await broadcastsDb.listen(BROADCASTS_CHANNEL, (txid) => broadcasts.notify(txid))
    : async () => undefined
  const trustedProxies = trustedProxyList(config.trustedProxies)
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  const connections = new Set<Connection>()

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== PATH && url.pathname !== `${PATH}/`) {
      return refuse(socket, 404, { message: 'no Route matched with those values' })
    }
    // Checked as the gateway checks REST and auth requests.
    const apiKey = header(req, 'apikey') ?? url.searchParams.get('apikey')
    if (!apiKey) return refuse(socket, 401, { message: 'No API key found in request' })
    if (!isApiKey(apiKey, config)) return refuse(socket, 401, { message: 'Invalid API key' })
    // Phoenix's default serializer when the client names none.
    const vsn = (url.searchParams.get('vsn') ?? '1.0.0') as Vsn
    if (!VSNS.includes(vsn)) return refuse(socket, 400, { message: `Unsupported serializer version: ${vsn}` })
    // The policies on realtime.messages see the upgrade's headers, with the client's address as the APIs see it.
    forwardClientAddress(req, trustedProxies)
    const headers = headersForPostgres(req)
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, vsn, apiKey, { db, config, hub, catalog }, headers)
      connections.add(connection)
      ws.on('close', () => connections.delete(connection))
    })
  }
  server.on('upgrade', onUpgrade)

  return {
    close: async () => {
      server.off('upgrade', onUpgrade)
      for (const connection of connections) connection.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await unlisten()
      await unlistenBroadcasts()
      await dispatcher.drained()
      await broadcasts.drained()
      await broadcastsDb.close()
      await scope.drained()
    },
  }
}
