/** A schema check's problems as a form shows them: the first message for each field, by the field's name. */
export function firstMessageByField<Field extends PropertyKey>(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {}
  for (const issue of issues) errors[issue.path[0] as Field] ??= issue.message
  return errors
}
