import { describe, expect, it } from 'vitest'
import type { AuditEvent } from '@/features/audit/model'
import { auditReferences, auditStory, NO_NAMES } from '@/features/audit/sentence'
import {
  reassignableReviewers,
  reviewerGapText,
  signoffText,
  upcomingCount,
  type CampaignSignoff,
} from '@/features/campaigns/reviewers-model'
import { delegationProblem, onBehalfText, signoffProgressText, signoffState } from '@/features/reviews/delegation-model'

function decision(details: Record<string, unknown>): AuditEvent {
  return {
    id: 1,
    user_id: 'u-thomas',
    user_email: 'thomas.roux@example.com',
    user_name: 'Thomas Roux',
    action: 'decide',
    resource_type: 'user_rights',
    resource_id: 'right-1',
    details: { stage: 'manager', decision: 'approved', decision_id: 'd-1', ...details },
    timestamp: '2026-11-20T10:00:00Z',
    ip_address: null,
  }
}

const names = {
  ...NO_NAMES,
  campaigns: new Map([['c-1', 'Revue T4']]),
  decisions: new Map([['d-1', { role_name: 'Lecteur', holder_name: 'Julie Martin', application_name: 'SAP Finance' }]]),
}

describe('the audit sentence of a decision taken for someone else', () => {
  it('names the reviewer a delegate decided for, and says when a fallback reviewer decided', () => {
    expect(auditStory(decision({ acting_as: 'delegate', on_behalf_of: 'u-marc', on_behalf_of_name: 'Marc Dubois' }), names).sentence).toBe(
      'Thomas Roux a validé le droit « Lecteur » de Julie Martin sur SAP Finance pour le compte de Marc Dubois',
    )
    expect(auditStory(decision({ acting_as: 'fallback' }), names).sentence).toBe(
      'Thomas Roux a validé le droit « Lecteur » de Julie Martin sur SAP Finance comme relecteur de secours',
    )
    expect(auditStory(decision({}), names).sentence).toBe('Thomas Roux a validé le droit « Lecteur » de Julie Martin sur SAP Finance')
  })

  it('tells a sign-off with its campaign and the statement signed', () => {
    const event: AuditEvent = {
      ...decision({}),
      action: 'sign_off',
      resource_type: 'campaigns',
      resource_id: 'c-1',
      details: { stage: 'manager', items: 3, statement: "Je certifie avoir revu l'ensemble des droits qui m'étaient confiés" },
    }
    expect(auditReferences([event]).campaigns).toEqual(['c-1'])
    expect(auditStory(event, names).sentence).toBe(
      "Thomas Roux a signé l'étape Manager de la campagne « Revue T4 » (3 éléments de revue) : « Je certifie avoir revu l'ensemble des droits qui m'étaient confiés »",
    )
  })
})

describe('delegation and sign-off, in words', () => {
  it('says for whom a confided right is decided', () => {
    expect(onBehalfText({ acting_as: 'delegate', on_behalf_of_name: 'Marc Dubois' })).toBe('Pour le compte de Marc Dubois')
    expect(onBehalfText({ acting_as: 'fallback', on_behalf_of_name: null })).toBe('Relecteur de secours (aucun relecteur désigné)')
  })

  it('opens the sign-off only when nothing is left, once', () => {
    expect(signoffState({ signed_at: null, open_count: 2 })).toBe('open')
    expect(signoffState({ signed_at: null, open_count: 0 })).toBe('ready')
    expect(signoffState({ signed_at: '2026-11-20T10:00:00Z', open_count: 0 })).toBe('signed')
  })

  it('refuses an incomplete delegation before sending it, in French', () => {
    const draft = { campaignId: 'c-1', delegateId: 'u-thomas', reason: 'Congés', endsOn: '2026-12-01', rightIds: null }
    expect(delegationProblem(draft, '2026-11-20')).toBeNull()
    expect(delegationProblem({ ...draft, delegateId: null }, '2026-11-20')).toBe('Choisissez la personne à qui déléguer.')
    expect(delegationProblem({ ...draft, rightIds: [] }, '2026-11-20')).toBe('Cochez au moins un droit à déléguer.')
    expect(delegationProblem({ ...draft, reason: '  ' }, '2026-11-20')).toBe('Indiquez le motif de la délégation.')
    expect(delegationProblem({ ...draft, endsOn: '2026-11-19' }, '2026-11-20')).toBe("La date de fin doit être aujourd'hui ou plus tard.")
  })

  it('lists each named reviewer once for reassignment, and the items without reviewer apart', () => {
    const row = (reviewer_id: string | null, reviewer_name: string | null, stage: CampaignSignoff['stage'] = 'manager'): CampaignSignoff => ({
      stage,
      reviewer_id,
      reviewer_name,
      reviewer_email: null,
      items_count: 1,
      open_count: 1,
      waiting_count: 1,
      signed_at: null,
      ip_address: null,
    })
    const rows = [row('u-z', 'Zoé Adam'), row('u-a', 'Anne Brun'), row('u-a', 'Anne Brun', 'ra'), row(null, null)]
    expect(reassignableReviewers(rows).map((reviewer) => reviewer.full_name)).toEqual(['Anne Brun', 'Zoé Adam'])
    expect(signoffText(row(null, null))).toBe('Aucun relecteur désigné : relecteurs de secours')
    expect(signoffText(row('u-a', 'Anne Brun'))).toBe('À décider')
    expect(signoffText({ ...row('u-a', 'Anne Brun'), waiting_count: 0 })).toBe('En attente des étapes précédentes')
    expect(signoffText({ ...row('u-a', 'Anne Brun'), waiting_count: 0, open_count: 0 })).toBe('Pas encore signé')
  })

  it('says what a stage card has left: what Mes revues lists now, and what is still reviewed before', () => {
    const card = { items_count: 10, open_count: 7, waiting_count: 1, upcoming_count: 6, signed_at: null }
    expect(signoffProgressText(card)).toBe('10 droits confiés : 1 à décider maintenant, 6 en revue aux étapes précédentes')
    expect(signoffProgressText({ ...card, open_count: 6, waiting_count: 0 })).toBe('10 droits confiés : rien à décider pour l’instant, 6 en revue aux étapes précédentes')
    expect(signoffProgressText({ ...card, open_count: 1, upcoming_count: 0 })).toBe('10 droits confiés : 1 à décider maintenant')
    expect(signoffProgressText({ ...card, open_count: 0, waiting_count: 0, upcoming_count: 0 })).toBe('10 droits confiés')
  })

  it('says in words which stage of a running campaign has rights nobody may decide', () => {
    expect(reviewerGapText({ stage: 'bpo_groupe', items_count: 12 })).toBe(
      "12 droits à l'étape BPO Groupe n'ont aucun relecteur : désignez un relecteur de secours",
    )
    expect(reviewerGapText({ stage: 'manager', items_count: 1 })).toBe("1 droit à l'étape Manager n'a aucun relecteur : désignez un relecteur de secours")
    expect(upcomingCount({ open_count: 10, waiting_count: 1 })).toBe(9)
    expect(upcomingCount({ open_count: 0, waiting_count: 3 })).toBe(0)
  })
})
