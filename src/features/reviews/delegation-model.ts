/** Pure logic of delegation, fallback reviewers and sign-off: no Supabase, no React. */
import type { RightStatus } from '@/domain/labels'
import { countText } from '@/domain/plural'
import type { DecisionTarget } from './model'

const numberText = (count: number) => new Intl.NumberFormat('fr-FR').format(count)

/** One row of rpc('delegated_review_queue'): a right the caller decides for someone else. */
export interface DelegatedItem {
  right_id: string
  holder_id: string
  holder_name: string
  holder_email: string
  application_id: string
  application_name: string
  role_name: string
  account_type: string
  justification: string | null
  status: RightStatus
  last_used_at: string | null
  campaign_id: string
  campaign_name: string
  campaign_end_date: string | null
  stage: string
  approve_status: RightStatus | null
  refuse_status: RightStatus | null
  on_behalf_of: string | null
  on_behalf_of_name: string | null
  acting_as: 'delegate' | 'fallback'
  ends_on: string | null
}

/** One row of rpc('my_delegations'): a delegation the caller gave or received. */
export interface Delegation {
  id: string
  campaign_id: string
  campaign_name: string
  delegator_id: string
  delegator_name: string
  delegate_id: string
  delegate_name: string
  /** null: all the delegator's items of the campaign. */
  items_count: number | null
  reason: string
  ends_on: string
  created_at: string
  revoked_at: string | null
  in_force: boolean
}

/** One row of rpc('my_signoffs'): the caller's items of a campaign stage, what is left and their signature. */
export interface StageSignoff {
  campaign_id: string
  campaign_name: string
  stage: 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
  items_count: number
  /** Items that may still need the caller's decision: the signature waits until there are none. */
  open_count: number
  /** Of those, the rights in the caller's queue (Mes revues) for this campaign now: the queue's own count. */
  waiting_count: number
  /** Of those, the items still reviewed at an earlier stage. */
  upcoming_count: number
  signed_at: string | null
}

export interface PersonChoice {
  id: string
  full_name: string
  email: string
  role: string
}

export interface DelegationInput {
  campaignId: string
  delegateId: string
  reason: string
  /** 'yyyy-MM-dd' */
  endsOn: string
  /** The rights chosen; null for all the caller's items of the campaign, those still to come included. */
  rightIds: string[] | null
}

export const SIGN_OFF_STATEMENT = "Je certifie avoir revu l'ensemble des droits qui m'étaient confiés"

/** Whom the caller decides for: the reviewer who delegated, or nobody for an item without reviewer. */
export function onBehalfText(item: Pick<DelegatedItem, 'acting_as' | 'on_behalf_of_name'>): string {
  return item.acting_as === 'fallback' || !item.on_behalf_of_name
    ? 'Relecteur de secours (aucun relecteur désigné)'
    : `Pour le compte de ${item.on_behalf_of_name}`
}

export function targetOfDelegatedItem(item: DelegatedItem): DecisionTarget {
  return {
    rightId: item.right_id,
    applicationName: item.application_name,
    roleName: item.role_name,
    holderName: item.holder_name,
    approveStatus: item.approve_status,
    refuseStatus: item.refuse_status,
    onBehalfOf: onBehalfText(item),
  }
}

/**
 * What a stage's card says is left: the rights to decide now, as many as Mes revues lists for the campaign, and those
 * still reviewed at an earlier stage, which keep the signature waiting too.
 */
export function signoffProgressText(signoff: Pick<StageSignoff, 'items_count' | 'open_count' | 'waiting_count' | 'upcoming_count' | 'signed_at'>): string {
  const confided = countText(signoff.items_count, 'droit confié', 'droits confiés')
  if (signoffState(signoff) !== 'open') return confided
  const now = signoff.waiting_count > 0 ? `${numberText(signoff.waiting_count)} à décider maintenant` : 'rien à décider pour l’instant'
  const later = signoff.upcoming_count > 0 ? `, ${numberText(signoff.upcoming_count)} en revue aux étapes précédentes` : ''
  return `${confided} : ${now}${later}`
}

/** Where a stage's signature stands: signed, ready to sign (nothing left open), or still open. */
export function signoffState(signoff: Pick<StageSignoff, 'signed_at' | 'open_count'>): 'signed' | 'ready' | 'open' {
  if (signoff.signed_at) return 'signed'
  return signoff.open_count === 0 ? 'ready' : 'open'
}

export interface DelegationDraft {
  campaignId: string
  delegateId: string | null
  reason: string
  endsOn: string
  rightIds: string[] | null
}

/** What the delegation form refuses before asking the server, in French; null when it may be sent. */
export function delegationProblem(draft: DelegationDraft, today: string): string | null {
  if (!draft.campaignId) return 'Choisissez la campagne.'
  if (!draft.delegateId) return 'Choisissez la personne à qui déléguer.'
  if (draft.rightIds !== null && draft.rightIds.length === 0) return 'Cochez au moins un droit à déléguer.'
  if (!draft.reason.trim()) return 'Indiquez le motif de la délégation.'
  if (!draft.endsOn) return 'Indiquez la date de fin (jj/mm/aaaa).'
  if (draft.endsOn < today) return "La date de fin doit être aujourd'hui ou plus tard."
  return null
}
