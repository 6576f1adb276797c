import type { ReactNode } from 'react'
import { actionLabel, userOptionLabel, type AuditFilterOptions } from './model'

const selectClasses =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500'

export function FilterSelect({ id, label, value, onChange, children }: { id: string; label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-gray-700">
        {label}
      </label>
      <select id={id} className={selectClasses} value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </div>
  )
}

export function UserOptions({ options }: { options: AuditFilterOptions | undefined }) {
  return (
    <>
      <option value="">Tous les utilisateurs</option>
      {options?.users.map((user) => (
        <option key={user.user_id} value={user.user_id}>
          {userOptionLabel(user)}
        </option>
      ))}
    </>
  )
}

export function ActionOptions({ options }: { options: AuditFilterOptions | undefined }) {
  return (
    <>
      <option value="">Toutes les actions</option>
      {options?.actions.map((action) => (
        <option key={action} value={action}>
          {actionLabel(action)}
        </option>
      ))}
    </>
  )
}
