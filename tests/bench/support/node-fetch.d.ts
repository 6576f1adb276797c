// node-fetch 2 ships no types, and the @types package would bring a dozen packages for the one call api.ts makes.
declare module 'node-fetch' {
  const fetch: (input: string, init?: Record<string, unknown>) => Promise<unknown>
  export default fetch
}
