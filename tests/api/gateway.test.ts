import { describe, expect, it } from 'vitest'
import { testBackendForFile } from './support/server'

const backend = testBackendForFile()

describe('gateway', () => {
  it('refuses a request without an API key, as Supabase does', async () => {
    const response = await fetch(`${backend.url}/rest/v1/users`)
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: 'No API key found in request' })
  })

  it('refuses an unknown API key', async () => {
    const response = await fetch(`${backend.url}/rest/v1/users`, { headers: { apikey: 'not-a-key' } })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: 'Invalid API key' })
  })

  it('answers CORS preflights with the requested headers', async () => {
    const response = await fetch(`${backend.url}/rest/v1/users`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'apikey,authorization,x-client-info' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    expect(response.headers.get('access-control-allow-headers')).toBe('apikey,authorization,x-client-info')
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH')
  })

  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${backend.url}/nowhere`, { headers: { apikey: backend.server.config.anonKey } })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
  })
})
