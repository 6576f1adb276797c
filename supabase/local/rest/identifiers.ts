/** A Postgres identifier, double-quoted: names reach SQL only through here. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}
