/** One Phoenix channel message, whichever serializer version carried it. */
export interface Frame {
  joinRef: string | null
  ref: string | null
  topic: string
  event: string
  payload: unknown
}

export type Vsn = '1.0.0' | '2.0.0'

export const VSNS: readonly Vsn[] = ['1.0.0', '2.0.0']

const refOf = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null)

// realtime-js (vsn 2.0.0) sends a broadcast whose payload is not an ArrayBuffer as this binary "user broadcast push".
const USER_BROADCAST_PUSH = 3
const BINARY_ENCODING = 0
const JSON_ENCODING = 1

/** Decodes a client frame; anything malformed is undefined and is ignored, as a Phoenix socket drops it. */
export function decodeFrame(data: Buffer, isBinary: boolean, vsn: Vsn): Frame | undefined {
  if (isBinary) return vsn === '2.0.0' ? decodeBroadcastPush(data) : undefined
  let message: unknown
  try {
    message = JSON.parse(data.toString('utf8'))
  } catch {
    return undefined
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(message) || message.length !== 5) return undefined
    const [joinRef, ref, topic, event, payload] = message as unknown[]
    if (typeof topic !== 'string' || typeof event !== 'string') return undefined
    return { joinRef: refOf(joinRef), ref: refOf(ref), topic, event, payload }
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined
  const { join_ref: joinRef, ref, topic, event, payload } = message as Record<string, unknown>
  if (typeof topic !== 'string' || typeof event !== 'string') return undefined
  return { joinRef: refOf(joinRef), ref: refOf(ref), topic, event, payload }
}

function decodeBroadcastPush(data: Buffer): Frame | undefined {
  if (data.length < 7 || data[0] !== USER_BROADCAST_PUSH) return undefined
  const lengths = [data[1], data[2], data[3], data[4], data[5]].map(Number)
  const encoding = data[6]
  const parts: string[] = []
  let offset = 7
  for (const length of lengths) {
    if (offset + length > data.length) return undefined
    parts.push(data.subarray(offset, offset + length).toString('utf8'))
    offset += length
  }
  // The fifth part is metadata the client may attach (allowedMetadataKeys); the local server does not use it.
  const [joinRef = '', ref = '', topic = '', userEvent = ''] = parts
  const body = data.subarray(offset)
  let payload: unknown
  if (encoding === JSON_ENCODING) {
    try {
      payload = JSON.parse(body.toString('utf8'))
    } catch {
      return undefined
    }
  } else if (encoding === BINARY_ENCODING) {
    // Relayed to JSON subscribers as base64; the local server does not re-encode binary broadcasts.
    payload = body.toString('base64')
  } else {
    return undefined
  }
  return { joinRef: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload: { type: 'broadcast', event: userEvent, payload } }
}

export function encodeFrame(frame: Frame, vsn: Vsn): string {
  if (vsn === '2.0.0') return JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload])
  return JSON.stringify({ join_ref: frame.joinRef, ref: frame.ref, topic: frame.topic, event: frame.event, payload: frame.payload })
}
