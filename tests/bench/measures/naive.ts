/**
 * Measure 8: the RSSI figures computed the naive way (every right fetched with supabase-js, 1000 at a time, and
 * counted in Node) against the rssi_dashboard RPC that counts in Postgres.
 */
import type { Api } from '../support/api'
import { median, repeat, round } from '../support/stats'

const PAGE = 1000
const VALIDATED = new Set(['validated_user', 'validated_manager', 'validated_bpo_metier', 'validated_bpo_groupe'])
const AT_RISK_DAYS = 90

interface Counters {
  total: number
  validated: number
  atRisk: number
  pending: number
  complianceRate: number | null
  applications: number
  campaigns: number
}

export interface NaiveResult {
  serverMs: number
  serverSamplesMs: number[]
  /** The naive pass; null when left out (above scale 1 it would fetch millions of rights for many minutes). */
  naivePass: {
    naiveMs: number
    naiveSamplesMs: number[]
    requests: number
    ratio: number
    /** The naive counters agree with the RPC's (total, validated, at risk): the two compute the same thing. */
    agrees: boolean
    naive: Counters
  } | null
  server: { total_rights: number; validated_rights: number; at_risk_rights: number }
}

async function naiveCounters(api: Api): Promise<{ counters: Counters; requests: number }> {
  const cutoff = Date.now() - AT_RISK_DAYS * 86_400_000
  const counters: Counters = { total: 0, validated: 0, atRisk: 0, pending: 0, complianceRate: null, applications: 0, campaigns: 0 }
  const applications = new Set<string>()
  const campaigns = new Set<string>()
  let requests = 0
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await api
      .from('user_rights')
      .select('id, application_id, campaign_id, status, last_used_at')
      .order('id')
      .range(from, from + PAGE - 1)
    requests += 1
    if (error) throw new Error(error.message)
    for (const right of data ?? []) {
      counters.total += 1
      if (VALIDATED.has(right.status)) counters.validated += 1
      if (right.status === 'pending') counters.pending += 1
      if (!right.last_used_at || Date.parse(right.last_used_at) < cutoff) counters.atRisk += 1
      applications.add(right.application_id)
      if (right.campaign_id) campaigns.add(right.campaign_id)
    }
    if ((data ?? []).length < PAGE) break
  }
  counters.complianceRate = counters.total === 0 ? null : Math.round((counters.validated / counters.total) * 1000) / 10
  counters.applications = applications.size
  counters.campaigns = campaigns.size
  return { counters, requests }
}

/**
 * `runs` naive computations; with `warmUp` one more first, not counted (skipped at full scale: it takes minutes). With
 * `naivePass` false, only the RPC is timed.
 */
export async function measureNaive(rssi: Api, runs: number, warmUp: boolean, naivePass = true): Promise<NaiveResult> {
  let server: NaiveResult['server'] = { total_rights: 0, validated_rights: 0, at_risk_rights: 0 }
  const serverSamples = await repeat(3, async () => {
    const started = performance.now()
    const { data, error } = await rssi.rpc('rssi_dashboard', {})
    const elapsed = performance.now() - started
    if (error) throw new Error(error.message)
    server = (data as unknown as { counters: NaiveResult['server'] }).counters
    return elapsed
  })
  const serverMs = median(serverSamples)
  const result = { serverMs: round(serverMs, 1), serverSamplesMs: serverSamples.map((value) => round(value, 1)), server }
  if (!naivePass) return { ...result, naivePass: null }
  let last: Awaited<ReturnType<typeof naiveCounters>> | undefined
  const naiveRun = async () => {
    const started = performance.now()
    last = await naiveCounters(rssi)
    return performance.now() - started
  }
  const naiveSamples = warmUp ? await repeat(runs, naiveRun) : [await naiveRun()]
  const naiveMs = median(naiveSamples)
  const naive = last!.counters
  return {
    ...result,
    naivePass: {
      naiveMs: round(naiveMs),
      naiveSamplesMs: naiveSamples.map((value) => round(value)),
      requests: last!.requests,
      ratio: round(naiveMs / serverMs, 1),
      // "At risk" is relative to now(): a right or two may cross the 90-day line between the RPC and the naive pass.
      agrees: naive.total === Number(server.total_rights) && naive.validated === Number(server.validated_rights) && Math.abs(naive.atRisk - Number(server.at_risk_rights)) <= 2,
      naive,
    },
  }
}
