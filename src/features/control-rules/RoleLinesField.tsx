import { Plus, X } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { SelectField } from '@/components/ui/SelectField'

interface RoleLinesFieldProps {
  /** One line per role, '' while not chosen. */
  roles: string[]
  onChange: (roles: string[]) => void
  /** The role names the rights bear in the rule's scope; undefined while they load or before a scope is chosen. */
  choices: string[] | undefined
  /** Why there is nothing to pick, if so. */
  unavailable: string | null
  error?: string
}

const NO_RIGHT_TODAY = ' (aucun droit aujourd’hui)'

/** The incompatible roles, each picked from the roles of the rule's scope; a saved name no right bears any more stays. */
export function RoleLinesField({ roles, onChange, choices, unavailable, error }: RoleLinesFieldProps) {
  const setLine = (index: number, role: string) => onChange(roles.map((current, i) => (i === index ? role : current)))
  return (
    <div className="space-y-3">
      {roles.map((role, index) => (
        <div key={index} className="flex items-end gap-2">
          <SelectField
            className="min-w-0 flex-1"
            label={`Rôle ${index + 1}`}
            name={`role-${index}`}
            value={role}
            disabled={choices === undefined && role === ''}
            error={index === roles.length - 1 ? error : undefined}
            onChange={(event) => setLine(index, event.target.value)}
          >
            <option value="">{unavailable ?? (choices === undefined ? 'Chargement des rôles…' : 'Choisir un rôle')}</option>
            {role !== '' && !choices?.includes(role) && (
              <option value={role}>
                {role}
                {choices === undefined ? '' : NO_RIGHT_TODAY}
              </option>
            )}
            {choices?.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </SelectField>
          {roles.length > 2 && (
            <Button variant="ghost" size="sm" aria-label={`Retirer le rôle ${index + 1}`} onClick={() => onChange(roles.filter((_, i) => i !== index))}>
              <X aria-hidden="true" className="h-4 w-4" />
            </Button>
          )}
        </div>
      ))}
      <Button variant="outline" size="sm" leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => onChange([...roles, ''])}>
        Ajouter un rôle
      </Button>
    </div>
  )
}
