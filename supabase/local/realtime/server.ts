import type http from 'node:http'
import type { ApiContext } from '../server'

// Placeholder until the realtime layer lands: installs change capture and serves /realtime/v1/websocket.
export async function startRealtime(_context: ApiContext, _server: http.Server): Promise<{ close(): Promise<void> }> {
  return { close: async () => undefined }
}
