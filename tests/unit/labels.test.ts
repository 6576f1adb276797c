import {
  ACCOUNT_TYPES,
  accountTypeLabel,
  CAMPAIGN_STATUSES,
  campaignStatusLabel,
  isRole,
  RIGHT_STATUSES,
  rightStatusLabel,
  ROLES,
  roleLabel,
} from '@/domain/labels'
import { rateTone, rightStatusTone } from '@/lib/tones'

describe('French labels', () => {
  it('names every role as SPEC §1 does', () => {
    expect(ROLES.map(roleLabel)).toEqual([
      'Utilisateur',
      'Manager',
      'BPO Métier',
      'BPO Groupe',
      "Responsable d'Application",
      'Administrateur',
      'RSSI',
    ])
  })

  it('has a French label for every right status, campaign status and account type', () => {
    for (const status of RIGHT_STATUSES) expect(rightStatusLabel(status)).not.toBe(status)
    expect(rightStatusLabel('pending')).toBe('En attente')
    expect(rightStatusLabel('treatment_required')).toBe('Traitement requis')
    expect(rightStatusLabel('treated')).toBe('Traité')
    expect(CAMPAIGN_STATUSES.map(campaignStatusLabel)).toEqual(['Brouillon', 'Active', 'Terminée', 'Archivée'])
    expect(ACCOUNT_TYPES.map(accountTypeLabel)).toEqual([
      'Standard',
      'À privilèges',
      'Technique',
      'Partagé / Générique',
      'Urgence (Break Glass)',
      'Externe',
    ])
  })

  it('shows an unknown value as it is rather than failing', () => {
    expect(roleLabel('auditor')).toBe('auditor')
    expect(rightStatusLabel('toString')).toBe('toString')
  })

  it('recognises roles', () => {
    expect(isRole('rssi')).toBe(true)
    expect(isRole('root')).toBe(false)
    expect(isRole(undefined)).toBe(false)
  })
})

describe('Tones', () => {
  it('colours right statuses as SPEC §4 says', () => {
    expect(RIGHT_STATUSES.map((status) => [status, rightStatusTone(status)])).toEqual([
      ['pending', 'grey'],
      ['validated_user', 'green'],
      ['refused_user', 'red'],
      ['validated_manager', 'green'],
      ['refused_manager', 'red'],
      ['validated_bpo_metier', 'green'],
      ['refused_bpo_metier', 'red'],
      ['validated_bpo_groupe', 'green'],
      ['refused_bpo_groupe', 'red'],
      ['treatment_required', 'amber'],
      ['treated', 'blue'],
    ])
  })

  it('colours rates green from 90 %, orange from 75 %, red below', () => {
    expect([100, 90, 89.99, 75, 74.99, 0].map(rateTone)).toEqual(['green', 'green', 'orange', 'orange', 'red', 'red'])
  })
})
