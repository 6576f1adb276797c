import {
  CONTROL_MESSAGES,
  controlRuleToForm,
  EMPTY_CONTROL_RULE_FORM,
  formatParameters,
  parseParameters,
  scopeLabel,
  statusLabel,
  toControlRuleInput,
  validateControlRuleForm,
  type ControlRuleRow,
} from '@/features/control-rules/model'

describe('controls model', () => {
  it('defaults new rules to global and enabled', () => {
    expect(EMPTY_CONTROL_RULE_FORM).toMatchObject({ global: true, enabled: true, parameters: '{}' })
  })

  it('parses a JSON object; the parameters are required', () => {
    expect(parseParameters('{"inactivity_threshold": 90}')).toEqual({ ok: true, value: { inactivity_threshold: 90 } })
    expect(parseParameters('  ')).toEqual({ ok: false, message: CONTROL_MESSAGES.invalidJson })
  })

  it.each([['{oops', CONTROL_MESSAGES.invalidJson], ['[1]', CONTROL_MESSAGES.notObject], ['null', CONTROL_MESSAGES.notObject], ['42', CONTROL_MESSAGES.notObject], ['"x"', CONTROL_MESSAGES.notObject]])(
    'refuses %s',
    (text, message) => {
      expect(parseParameters(text)).toEqual({ ok: false, message })
    },
  )

  it.each(['0', '-1', '"90"', 'null'])('refuses inactivity_threshold %s', (threshold) => {
    expect(parseParameters(`{"inactivity_threshold": ${threshold}}`)).toEqual({ ok: false, message: CONTROL_MESSAGES.invalidThreshold })
  })

  it('requires a name, and an application when not global', () => {
    expect(validateControlRuleForm({ ...EMPTY_CONTROL_RULE_FORM, global: false })).toEqual({
      name: CONTROL_MESSAGES.nameRequired,
      application_id: CONTROL_MESSAGES.applicationRequired,
    })
    expect(validateControlRuleForm({ ...EMPTY_CONTROL_RULE_FORM, name: 'R' })).toEqual({})
  })

  it('sends application_id null for a global rule even if one was picked before', () => {
    const input = toControlRuleInput({ ...EMPTY_CONTROL_RULE_FORM, name: ' R ', application_id: 'app-1', parameters: '{"a":1}' })
    expect(input).toEqual({ name: 'R', description: '', global: true, application_id: null, parameters: { a: 1 }, enabled: true })
    expect(toControlRuleInput({ ...EMPTY_CONTROL_RULE_FORM, name: 'R', global: false, application_id: 'app-1' }).application_id).toBe('app-1')
  })

  it('round-trips a row through the form and labels it in French', () => {
    const row = { name: 'R', description: '', global: true, application_id: null, parameters: { a: 1 }, enabled: false } as unknown as ControlRuleRow
    expect(controlRuleToForm(row)).toEqual({ name: 'R', description: '', global: true, application_id: '', parameters: '{\n  "a": 1\n}', enabled: false })
    expect(formatParameters({ a: 1 })).toBe('{\n  "a": 1\n}')
    expect(scopeLabel({ global: true })).toBe('Globale')
    expect(scopeLabel({ global: false })).toBe('Application')
    expect(statusLabel({ enabled: true })).toBe('Active')
    expect(statusLabel({ enabled: false })).toBe('Inactive')
  })
})
