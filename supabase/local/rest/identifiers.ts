/** A Postgres identifier, double-quoted: names reach SQL only through here. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/**
 * A string constant, as an escape string so that it reads the same whatever standard_conforming_strings is: values
 * reach a statement sent without parameters only through here. Undefined for a NUL, which PostgreSQL text cannot hold
 * and which would cut the statement's message short: such a value must go as a parameter, which is refused whole.
 */
export function quoteLiteral(value: string): string | undefined {
  if (value.includes('\0')) return undefined
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}
