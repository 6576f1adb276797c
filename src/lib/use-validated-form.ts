import { useState, type FormEvent } from 'react'

interface ValidatedFormOptions<Values, Errors extends object, Input> {
  initialValues: Values
  /** French messages by field; empty when the values may be sent. */
  validate: (values: Values) => Errors
  toInput: (values: Values) => Input
  /** Sends the input; a rejection's message is shown in the form, which stays open. */
  onSubmit: (input: Input) => Promise<void>
}

/** A form's values, its field errors, and a submit that validates first and keeps the server's refusal on screen. */
export function useValidatedForm<Values, Errors extends object, Input>({ initialValues, validate, toInput, onSubmit }: ValidatedFormOptions<Values, Errors, Input>) {
  const [values, setValues] = useState(initialValues)
  const [errors, setErrors] = useState<Partial<Errors>>({})
  const [serverError, setServerError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  const setField = <K extends keyof Values>(field: K, value: Values[K]) => setValues((current) => ({ ...current, [field]: value }))

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = validate(values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    setServerError(null)
    onSubmit(toInput(values)).catch((error: unknown) => {
      setServerError(error instanceof Error ? error.message : null)
      setPending(false)
    })
  }

  return { values, setField, errors, serverError, pending, submit }
}
