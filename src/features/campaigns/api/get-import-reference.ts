import { useQuery } from '@tanstack/react-query'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import type { ImportReference } from '../import/csv-import'
import { campaignKeys } from './campaign-keys'

/** The e-mails and applications the caller can read, against which the preview names unknown ones. */
export async function fetchImportReference(): Promise<ImportReference> {
  const supabase = getSupabase()
  const [users, applications] = await Promise.all([
    readAllPages((from, to) => supabase.from('users').select('email').order('id').range(from, to)),
    readAllPages((from, to) => supabase.from('applications').select('id,name').order('id').range(from, to)),
  ])
  return { emails: users.map((user) => user.email), applications }
}

export const useImportReference = () => useQuery({ queryKey: campaignKeys.importReference(), queryFn: fetchImportReference, staleTime: 60_000 })
