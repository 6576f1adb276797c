import {
  CONTROL_MESSAGES,
  controlRuleToForm,
  EMPTY_CONTROL_RULE_FORM,
  scopeLabel,
  statusLabel,
  toControlRuleInput,
  validateControlRuleForm,
  type ControlRuleFormValues,
  type ControlRuleRow,
} from '@/features/control-rules/model'
import { reachText, readRuleParameters, ruleSentences } from '@/features/control-rules/parameters'

const named = (values: Partial<ControlRuleFormValues>): ControlRuleFormValues => ({ ...EMPTY_CONTROL_RULE_FORM, name: 'R', ...values })
const row = (values: Partial<ControlRuleRow>) =>
  ({ name: 'R', description: '', global: true, application_id: null, application: null, enabled: true, parameters: {}, ...values }) as ControlRuleRow

describe('controls model', () => {
  it('starts a new rule global, enabled, with two roles to pick', () => {
    expect(EMPTY_CONTROL_RULE_FORM).toMatchObject({ global: true, enabled: true, checksRoles: true, roles: ['', ''], checksInactivity: false })
  })

  it.each([
    ['no name', named({ name: '  ', roles: ['A', 'B'] }), { name: CONTROL_MESSAGES.nameRequired }],
    ['no application for an application rule', named({ global: false, roles: ['A', 'B'] }), { application_id: CONTROL_MESSAGES.applicationRequired }],
    ['no role picked', named({}), { roles: CONTROL_MESSAGES.tooFewRoles }],
    ['one role picked', named({ roles: ['A', ''] }), { roles: CONTROL_MESSAGES.tooFewRoles }],
    ['the same role twice', named({ roles: ['A', 'B', 'A'] }), { roles: CONTROL_MESSAGES.duplicateRole('A') }],
    ['nothing checked', named({ checksRoles: false }), { checks: CONTROL_MESSAGES.nothingChecked }],
    ['a threshold of zero', named({ checksRoles: false, checksInactivity: true, threshold: '0' }), { threshold: CONTROL_MESSAGES.invalidThreshold }],
    ['a threshold beyond a century', named({ checksRoles: false, checksInactivity: true, threshold: '36501' }), { threshold: CONTROL_MESSAGES.invalidThreshold }],
    ['a blank threshold', named({ checksRoles: false, checksInactivity: true, threshold: ' ' }), { threshold: CONTROL_MESSAGES.invalidThreshold }],
  ])('refuses %s in French', (_label, values, errors) => {
    expect(validateControlRuleForm(values)).toEqual(errors)
  })

  it('accepts two roles, a threshold, or a rule that only keeps parameters it cannot edit', () => {
    expect(validateControlRuleForm(named({ roles: ['A', '', 'B'] }))).toEqual({})
    expect(validateControlRuleForm(named({ checksRoles: false, checksInactivity: true, threshold: '30' }))).toEqual({})
    expect(validateControlRuleForm(named({ checksRoles: false, otherParameters: { max_accounts: 3 } }))).toEqual({})
  })

  it('sends the picked roles and the threshold over the kept parameters; a global rule sends no application', () => {
    const values = named({ name: ' R ', application_id: 'app-1', roles: ['A', '', 'B'], checksInactivity: true, threshold: '45', otherParameters: { note: 1 } })
    expect(toControlRuleInput(values)).toEqual({
      name: 'R',
      description: '',
      global: true,
      application_id: null,
      parameters: { note: 1, incompatible_roles: ['A', 'B'], inactivity_threshold: 45 },
      enabled: true,
    })
    expect(toControlRuleInput(named({ global: false, application_id: 'app-1', roles: ['A', 'B'] })).application_id).toBe('app-1')
    expect(toControlRuleInput(named({ checksRoles: false, checksInactivity: true, threshold: '30', roles: ['A', 'B'] })).parameters).toEqual({ inactivity_threshold: 30 })
  })

  it('loads a saved rule into the pickers, keeping and explaining what the form cannot edit', () => {
    const form = controlRuleToForm(row({ parameters: { incompatible_roles: [' A', 'B', 'C'], inactivity_threshold: 30, max_accounts: 3 }, enabled: false }))
    expect(form).toMatchObject({ checksRoles: true, roles: ['A', 'B', 'C'], checksInactivity: true, threshold: '30', otherParameters: { max_accounts: 3 }, enabled: false })
    expect(form.notes).toEqual([
      "Cette règle porte aussi un paramètre que ce formulaire ne sait pas modifier (max_accounts) : il est conservé tel quel, et la page Conformité ne l'évalue pas.",
    ])
    // Saved again untouched, nothing is lost.
    expect(toControlRuleInput(form).parameters).toEqual({ max_accounts: 3, incompatible_roles: ['A', 'B', 'C'], inactivity_threshold: 30 })
  })

  it('keeps a threshold or a role list it cannot read as it was', () => {
    const read = readRuleParameters({ inactivity_threshold: '90', incompatible_roles: 'A, B' })
    expect(read).toMatchObject({ roles: null, threshold: null, other: { inactivity_threshold: '90', incompatible_roles: 'A, B' } })
    expect(toControlRuleInput(controlRuleToForm(row({ parameters: { inactivity_threshold: '90' } }))).parameters).toEqual({ inactivity_threshold: '90' })
  })

  it('says the rule in French, as the compliance page evaluates it', () => {
    expect(ruleSentences({ incompatible_roles: ['Approbateur', 'Comptable'] }, 'SAP Finance')).toEqual([
      'Une même personne ne peut pas détenir à la fois SAP Finance — Approbateur et SAP Finance — Comptable.',
    ])
    expect(ruleSentences({ incompatible_roles: ['A', 'B', 'C'] }, null)).toEqual([
      "Une même personne ne peut pas détenir plus d'un de ces rôles : A, B et C, sur une même application ou sur des applications différentes.",
    ])
    expect(ruleSentences({ inactivity_threshold: 1 }, 'GitLab')).toEqual(['Tout droit sur GitLab non utilisé depuis plus de 1 jour, ou jamais utilisé, est signalé.'])
    expect(ruleSentences({ inactivity_threshold: 1500, foo: 1 }, null)).toEqual([
      'Tout droit sur toute application non utilisé depuis plus de 1\u202f500 jours, ou jamais utilisé, est signalé.',
      'Paramètres non évalués : foo.',
    ])
    expect(ruleSentences({ incompatible_roles: ['A'] }, null)).toEqual([])
  })

  it('says how many the rule concerns today', () => {
    expect(reachText({ incompatible_roles: 2 })).toBe("Concerne aujourd'hui 2 personnes")
    expect(reachText({ incompatible_roles: 1, inactivity_threshold: 14 })).toBe("Concerne aujourd'hui 1 personne et 14 droits inutilisés")
    expect(reachText({})).toBeNull()
  })

  it('labels scope and status in French', () => {
    expect(scopeLabel({ global: true })).toBe('Globale')
    expect(scopeLabel({ global: false })).toBe('Application')
    expect(statusLabel({ enabled: true })).toBe('Active')
    expect(statusLabel({ enabled: false })).toBe('Inactive')
  })
})
