// The development functions middleware (Vite's dev and preview servers) serves the functions at their production
// paths, and only those Netlify serves by URL: a scheduled function has none in production, so an HTTP request for
// one, signed in or not, is answered 404 and never runs it.
import http from 'node:http'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFunctionsMiddleware } from '../../netlify/dev/functions-middleware'

interface Served {
  url: string
  close(): Promise<void>
}

async function serve(directory: string): Promise<Served> {
  const middleware = createFunctionsMiddleware({ directory, load: (file) => import(file) })
  const server = http.createServer((req, res) => middleware(req, res, () => res.writeHead(404).end()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.netlify/functions`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

// Counts the runs of the scheduled test function below.
const runs = globalThis as { scheduledRuns?: number }

describe('a scheduled function', () => {
  let directory: string
  let served: Served
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'recertif-functions-'))
    await writeFile(
      path.join(directory, 'tick.mjs'),
      `export default async () => { globalThis.scheduledRuns = (globalThis.scheduledRuns ?? 0) + 1; return new Response(null, { status: 204 }) }
export const config = { schedule: '*/10 * * * *' }\n`,
    )
    await writeFile(path.join(directory, 'hello.mjs'), `export default async () => Response.json({ hello: 'bonjour' })\n`)
    served = await serve(directory)
  })
  afterAll(async () => {
    await served.close()
    await rm(directory, { recursive: true, force: true })
  })

  it('is not invoked by URL, whatever the method: 404, as on Netlify, and it does not run', async () => {
    runs.scheduledRuns = 0
    for (const method of ['GET', 'POST', 'HEAD']) {
      const response = await fetch(`${served.url}/tick`, { method, headers: { Authorization: 'Bearer anything' } })
      expect(response.status).toBe(404)
    }
    expect(runs.scheduledRuns).toBe(0)
  })

  it('leaves the other functions served', async () => {
    const response = await fetch(`${served.url}/hello`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ hello: 'bonjour' })
  })
})

describe("the project's notifications pass", () => {
  let served: Served
  beforeAll(async () => {
    served = await serve(path.resolve('netlify/functions'))
  })
  afterAll(() => served.close())

  it('answers an anonymous GET with 404, running nothing with the service role', async () => {
    const response = await fetch(`${served.url}/notifications-dispatch`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: '"notifications-dispatch" is a scheduled function: it cannot be invoked by URL' })
  })

  it('keeps « Envoyer maintenant », which checks its caller, reachable', async () => {
    const response = await fetch(`${served.url}/notifications-send`, { method: 'POST' })
    expect(response.status).toBe(401)
  })
})
