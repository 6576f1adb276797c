import {
  applyFilters,
  decisionLabels,
  filterOptions,
  groupQueue,
  NO_FILTERS,
  recommendationText,
  runBulk,
  statusFor,
  type QueueItem,
} from '@/features/reviews/model'

function item(overrides: Partial<QueueItem>): QueueItem {
  return {
    right_id: 'r1',
    holder_id: 'h1',
    holder_name: 'Julie Martin',
    holder_email: 'user@example.com',
    holder_position: null,
    holder_department: null,
    application_id: 'a1',
    application_name: 'SAP Finance',
    role_name: 'Comptable',
    account_type: 'standard',
    justification: null,
    status: 'pending',
    granted_at: '2023-03-01',
    last_used_at: '2026-11-01T00:00:00Z',
    campaign_id: 'c1',
    campaign_name: 'Revue T4',
    campaign_status: 'active',
    campaign_end_date: '2026-12-15',
    stage: 'manager',
    approve_status: 'validated_manager',
    refuse_status: 'refused_manager',
    days_unused: 20,
    suggests_refusal: false,
    recommendation: null,
    ...overrides,
  }
}

describe('inactivity recommendation (SPEC §9)', () => {
  it('uses the text the database computed', () => {
    expect(recommendationText(item({ recommendation: 'Inutilisé depuis 140 jours', suggests_refusal: true, days_unused: 140 }))).toBe(
      'Inutilisé depuis 140 jours',
    )
  })
  it('says Jamais utilisé for a right never used', () => {
    expect(recommendationText(item({ last_used_at: null, days_unused: null, suggests_refusal: true }))).toBe('Jamais utilisé')
  })
  it('words the days unused when only the figures are given', () => {
    expect(recommendationText(item({ days_unused: 95, suggests_refusal: true }))).toBe('Inutilisé depuis 95 jours')
  })
  it('says nothing for a right in use', () => {
    expect(recommendationText(item({}))).toBeNull()
  })
})

describe('grouping and filters', () => {
  const queue = [
    item({ right_id: 'r1', holder_id: 'h2', holder_name: 'Thomas Roux', application_id: 'a2', application_name: 'Salesforce CRM' }),
    item({ right_id: 'r2', holder_id: 'h1', holder_name: 'Émilie Durand', application_id: 'a1', application_name: 'SAP Finance' }),
    item({ right_id: 'r3', holder_id: 'h2', holder_name: 'Thomas Roux', application_id: 'a1', application_name: 'SAP Finance', campaign_id: 'c2', campaign_name: 'Annuelle', status: 'validated_user' }),
  ]

  it('groups by person, in French alphabetical order, keeping the item order', () => {
    const groups = groupQueue(queue, 'person')
    expect(groups.map((group) => [group.label, group.items.map((entry) => entry.right_id)])).toEqual([
      ['Émilie Durand', ['r2']],
      ['Thomas Roux', ['r1', 'r3']],
    ])
    expect(groups[0]?.detail).toBe('user@example.com')
  })

  it('groups by application', () => {
    expect(groupQueue(queue, 'application').map((group) => [group.label, group.items.length])).toEqual([
      ['Salesforce CRM', 1],
      ['SAP Finance', 2],
    ])
  })

  it('offers the campaigns, applications and statuses of the queue', () => {
    const options = filterOptions(queue)
    expect(options.campaigns).toEqual([
      { value: 'c2', label: 'Annuelle' },
      { value: 'c1', label: 'Revue T4' },
    ])
    expect(options.applications.map((option) => option.value)).toEqual(['a2', 'a1'])
    expect(options.statuses).toEqual(['pending', 'validated_user'])
  })

  it('filters by campaign, application and status together', () => {
    expect(applyFilters(queue, NO_FILTERS)).toHaveLength(3)
    expect(applyFilters(queue, { ...NO_FILTERS, applicationId: 'a1' }).map((entry) => entry.right_id)).toEqual(['r2', 'r3'])
    expect(applyFilters(queue, { campaignId: 'c1', applicationId: 'a1', status: 'pending' }).map((entry) => entry.right_id)).toEqual(['r2'])
    expect(applyFilters(queue, { ...NO_FILTERS, status: 'validated_user' }).map((entry) => entry.right_id)).toEqual(['r3'])
  })
})

describe('decisions', () => {
  it('takes the status each button gives from the queue row', () => {
    expect(statusFor(item({}), 'approve')).toBe('validated_manager')
    expect(statusFor(item({ refuse_status: null }), 'refuse')).toBeNull()
  })

  it("words the RA's buttons as closing", () => {
    expect(decisionLabels({ approveStatus: 'treated' })).toEqual({ approve: 'Marquer traité', refuse: 'Traitement requis' })
    expect(decisionLabels({ approveStatus: 'validated_user' })).toEqual({ approve: 'Valider', refuse: 'Refuser' })
  })

  it('decides right by right and reports each failure while the rest succeed', async () => {
    const calls: string[] = []
    const outcomes = await runBulk(
      [
        { rightId: 'r1', status: 'refused_manager', comment: 'Revue' },
        { rightId: 'r2', status: 'refused_manager', comment: 'Revue' },
        { rightId: 'r3', status: null, comment: 'Revue' },
        { rightId: 'r4', status: 'refused_manager', comment: 'Revue' },
      ],
      async ({ rightId, status, comment }) => {
        calls.push(`${rightId}:${status}:${comment}`)
        if (rightId === 'r2') throw new Error('Ce droit a déjà été traité')
      },
    )
    // A right on which the decision is not possible is never sent.
    expect(calls).toEqual(['r1:refused_manager:Revue', 'r2:refused_manager:Revue', 'r4:refused_manager:Revue'])
    expect(outcomes).toEqual([
      { rightId: 'r1', ok: true, message: null },
      { rightId: 'r2', ok: false, message: 'Ce droit a déjà été traité' },
      { rightId: 'r3', ok: false, message: 'Cette décision n’est pas possible sur ce droit.' },
      { rightId: 'r4', ok: true, message: null },
    ])
  })
})
