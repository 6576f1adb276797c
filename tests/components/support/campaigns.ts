import type { Campaign } from '@/features/campaigns/model'

/** A campaign as the campaigns api returns it: a draft with no rights and the default e-mail settings, unless overridden. */
export function makeCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: 'c1',
    name: 'Campagne',
    description: '',
    applicationId: null,
    applicationName: null,
    accountType: null,
    startDate: '2026-11-01',
    endDate: '2026-12-15',
    status: 'draft',
    createdBy: null,
    creatorName: null,
    createdAt: '2026-11-01T00:00:00Z',
    progress: null,
    rightsCount: 0,
    reviewedCount: 0,
    undecidedCount: 0,
    pendingCount: 0,
    validatedManagerCount: 0,
    validatedBpoMetierCount: 0,
    recurrence: null,
    autoStart: false,
    nextOccurrence: null,
    notificationsEnabled: true,
    remindersEnabled: true,
    reminderDays: [7, 3, 1],
    escalationDelayDays: 0,
    ...overrides,
  }
}
