import * as z from 'zod/mini'
import { firstMessageByField } from '@/lib/field-errors'

export const loginSchema = z.object({
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "L'adresse e-mail est obligatoire."),
      z.email({ error: 'Veuillez saisir une adresse e-mail valide.' }),
    ),
  password: z.string().check(z.minLength(1, 'Le mot de passe est obligatoire.')),
})

export type LoginFields = z.infer<typeof loginSchema>
export type LoginFieldErrors = Partial<Record<keyof LoginFields, string>>

/** The first message for each field, or the cleaned values. */
export function validateLogin(input: LoginFields): { ok: true; values: LoginFields } | { ok: false; errors: LoginFieldErrors } {
  const result = loginSchema.safeParse(input)
  if (result.success) return { ok: true, values: result.data }
  return { ok: false, errors: firstMessageByField(result.error.issues) }
}
