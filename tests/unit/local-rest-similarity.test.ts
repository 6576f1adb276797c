import { describe, expect, it } from 'vitest'
import { closest } from '../../supabase/local/rest/similarity'

// The "Perhaps you meant …" ranking of the local REST server, which follows PostgREST's Data.FuzzySet.getOne.

describe('closest', () => {
  it('suggests the most alike name once it is a third alike', () => {
    expect(closest('campaign', ['users', 'campaigns'])).toBe('campaigns')
    expect(closest('cf_user_list', ['cf_users', 'cf_channels'])).toBe('cf_users')
  })

  it('suggests nothing for a name sharing no bigram with any candidate, however few edits away', () => {
    expect(closest('dg_vsfrt', ['cf_users'])).toBeUndefined()
  })

  it('suggests nothing below a third alike', () => {
    expect(closest('message_details', ['users', 'channels'])).toBeUndefined()
  })

  it('prefers an equal name, ignoring case', () => {
    expect(closest('Users', ['user', 'users'])).toBe('users')
  })
})
