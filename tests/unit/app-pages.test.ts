import { APP_PAGES, appPage, canOpen, menuFor } from '@/app/app-pages'
import { ROLES } from '@/domain/labels'

describe('Menu by role (SPEC §2)', () => {
  const menu = (role: (typeof ROLES)[number]) => menuFor(role).map((page) => `/app/${page.path}`)

  it('matches the table', () => {
    expect(menu('user')).toEqual(['/app/dashboard', '/app/reviews'])
    expect(menu('manager')).toEqual(['/app/dashboard', '/app/reviews', '/app/team'])
    for (const role of ['bpo_metier', 'bpo_groupe', 'ra'] as const) {
      expect(menu(role)).toEqual(['/app/dashboard', '/app/reviews', '/app/applications'])
    }
    expect(menu('admin')).toEqual(['/app/dashboard', '/app/applications', '/app/campaigns', '/app/users', '/app/controls', '/app/notifications'])
    expect(menu('rssi')).toEqual([
      '/app/dashboard',
      '/app/applications',
      '/app/campaigns',
      '/app/users',
      '/app/controls',
      '/app/compliance',
      '/app/audit',
      '/app/notifications',
    ])
  })

  it('lets every role open the dashboard, its profile and the campaign list (SPEC §6), and nothing else outside its menu', () => {
    for (const role of ROLES) {
      const allowed = APP_PAGES.filter((page) => canOpen(role, page)).map((page) => page.key)
      const expected = [...menuFor(role).map((page) => page.key), 'campaigns', 'profile']
      expect(allowed).toEqual(APP_PAGES.map((page) => page.key).filter((key) => expected.includes(key)))
    }
    expect(canOpen('user', appPage('profile'))).toBe(true)
  })

  it("has the ten child routes of SPEC, and the notifications' page", () => {
    expect(APP_PAGES.map((page) => page.path)).toEqual([
      'dashboard',
      'reviews',
      'team',
      'applications',
      'campaigns',
      'users',
      'controls',
      'compliance',
      'audit',
      'notifications',
      'profile',
    ])
  })
})
