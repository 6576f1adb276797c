import { describe, expect, it } from 'vitest'
import { dashboardViewFor } from '@/app/routes/app/dashboard'

describe('dashboardViewFor', () => {
  it('gives rssi, admin and manager their own view and every other role the user view (SPEC §2)', () => {
    expect(dashboardViewFor('rssi')).toBe('rssi')
    expect(dashboardViewFor('admin')).toBe('admin')
    expect(dashboardViewFor('manager')).toBe('manager')
    for (const role of ['user', 'bpo_metier', 'bpo_groupe', 'ra'] as const) expect(dashboardViewFor(role)).toBe('user')
  })
})
