/** XML text for an Office Open XML package: escapes, cell texts fitted to Excel, column names, namespaces. */

export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
export const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
export const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
export const PACKAGE_RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'

/** XML encoded and compressed at a time: large enough for few calls, small enough for little memory. */
export const BATCH_CHARACTERS = 1 << 20
export const BATCH_BYTES = 1 << 20

/** Excel refuses longer cells (its specifications and limits). */
export const MAX_CELL_LENGTH = 32_767
export const TRUNCATION_NOTE = ' […] (texte tronqué : plus de 32 767 caractères)'

/** A, B, … Z, AA, AB, … */
export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** What XML 1.0 cannot hold (C0 controls but tab and line feed, lone surrogates, U+FFFE/U+FFFF) plus carriage return, which XML readers turn into a line feed. */
// eslint-disable-next-line no-control-regex -- these control characters are exactly what must be escaped
const NOT_XML_TEXT = /[\u0000-\u0008\u000b-\u000d\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/** Text that a reader would take for one of the escapes below: its underscore is itself escaped. */
const LOOKS_ESCAPED = /_(?=x[0-9a-fA-F]{4}_)/g
// eslint-disable-next-line no-control-regex -- same set as NOT_XML_TEXT, to skip the work on ordinary text
const NEEDS_WORK = /[<>&_\u0000-\u0008\u000b-\u001f\ud800-\udfff\ufffe\uffff]/
const NEEDS_PRESERVE = /^\s|\s$|[\t\n]/

/**
 * The text as an XML element's content. Characters XML cannot carry are written as `_xHHHH_`, the escape of
 * Office Open XML (ECMA-376 ST_Xstring) that Excel, LibreOffice and SheetJS turn back into the character.
 */
function escapeText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text
  return text
    .replace(LOOKS_ESCAPED, '_x005F_')
    .replace(NOT_XML_TEXT, (char) => `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/** Excel's longest cell, cut with a note saying so, never in the middle of a surrogate pair. */
function fitCell(text: string): string {
  if (text.length <= MAX_CELL_LENGTH) return text
  let end = MAX_CELL_LENGTH - TRUNCATION_NOTE.length
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1
  return text.slice(0, end) + TRUNCATION_NOTE
}

export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The text of a `<t>` element, with the attribute that keeps its spaces, tabs and line breaks. */
export function textElement(value: string): string {
  const text = escapeText(fitCell(value))
  return NEEDS_PRESERVE.test(text) ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`
}
