import {
  APPLICATION_MESSAGES,
  applicationToForm,
  EMPTY_APPLICATION_FORM,
  groupOwnerChoices,
  personName,
  toApplicationInput,
  validateApplicationForm,
  type ApplicationRow,
} from '@/features/applications/model'

describe('applications model', () => {
  it('requires the name, the RA and the BPO Métier', () => {
    expect(validateApplicationForm({ ...EMPTY_APPLICATION_FORM, name: '   ' })).toEqual({
      name: APPLICATION_MESSAGES.nameRequired,
      ra_id: APPLICATION_MESSAGES.raRequired,
      bpo_metier_id: APPLICATION_MESSAGES.bpoMetierRequired,
    })
    expect(validateApplicationForm({ ...EMPTY_APPLICATION_FORM, name: 'CRM', ra_id: 'r', bpo_metier_id: 'b' })).toEqual({})
  })

  it('trims and leaves out the empty optional owners', () => {
    expect(toApplicationInput({ name: ' CRM ', description: ' d ', ra_id: 'r', bpo_metier_id: 'b', bpo_groupe_id: '', rssi_id: 's' })).toEqual({
      name: 'CRM',
      description: 'd',
      ra_id: 'r',
      bpo_metier_id: 'b',
      bpo_groupe_id: undefined,
      rssi_id: 's',
    })
  })

  it('turns a row into form values, with empty strings for nobody', () => {
    const row = { name: 'CRM', description: 'x', ra_id: 'r', bpo_metier_id: 'b', bpo_groupe_id: null, rssi_id: null } as ApplicationRow
    expect(applicationToForm(row)).toEqual({ name: 'CRM', description: 'x', ra_id: 'r', bpo_metier_id: 'b', bpo_groupe_id: '', rssi_id: '' })
  })

  it("names people, '-' for nobody", () => {
    expect(personName({ first_name: 'Marc', last_name: 'Dubois' })).toBe('Marc Dubois')
    expect(personName(null)).toBe('-')
  })

  it('groups owner choices by role, sorted by name', () => {
    const grouped = groupOwnerChoices([
      { id: '2', first_name: 'Zoé', last_name: 'B', role: 'ra' },
      { id: '1', first_name: 'Anne', last_name: 'A', role: 'ra' },
      { id: '3', first_name: 'Bob', last_name: 'C', role: 'bpo_metier' },
      { id: '4', first_name: 'Rita', last_name: 'D', role: 'rssi' },
      { id: '5', first_name: 'Man', last_name: 'E', role: 'manager' },
    ])
    expect(grouped.ra.map((p) => p.id)).toEqual(['1', '2'])
    expect(grouped.bpo_metier.map((p) => p.id)).toEqual(['3'])
    expect(grouped.bpo_groupe).toEqual([])
    expect(grouped.rssi.map((p) => p.id)).toEqual(['4'])
  })
})
