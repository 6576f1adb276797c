import type { TestProject } from 'vitest/node'
import { startDevApp } from '../../../supabase/local/dev-app'
import { startJourneyServers } from './journey-servers'

/** The journeys on the app as `npm start` serves it: Vite's dev server, with React Fast Refresh in every module. */
export default function setup(project: TestProject) {
  return startJourneyServers(project, async (backendUrl, port) => {
    const server = await startDevApp({ backendUrl, port })
    return { close: () => server.close() }
  })
}
