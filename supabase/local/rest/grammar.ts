import { HttpError } from '../http'
import type {
  AggregateFunction,
  Field,
  FtsOperator,
  IsValue,
  JoinType,
  JsonStep,
  LogicTree,
  Operation,
  OrderTerm,
  QuantifiableOperator,
  SelectItem,
  SimpleOperator,
} from './ast'
import { queryParamError } from './errors'

// PostgREST's query-string grammar (src/PostgREST/ApiRequest/QueryParams.hs), as a hand-written
// recursive-descent parser. Every failure is a PGRST100 naming the position, never an exception of another kind.

/** Deeper select trees are refused: each level is a lateral join, and the grammar is recursive. */
const MAX_DEPTH = 16
/** Each JSON step nests one more operator; Postgres (in WebAssembly especially) overflows its stack on hundreds. */
const MAX_JSON_STEPS = 64

class Cursor {
  pos = 0
  constructor(
    readonly input: string,
    readonly what: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.input.length
  }
  /** The code point at the cursor (one or two UTF-16 units), or '' at the end. */
  char(offset = 0): string {
    let at = this.pos
    for (let i = 0; i < offset && at < this.input.length; i++) at += String.fromCodePoint(this.input.codePointAt(at)!).length
    const code = this.input.codePointAt(at)
    return code === undefined ? '' : String.fromCodePoint(code)
  }
  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos)
  }
  eat(text: string): boolean {
    if (!this.startsWith(text)) return false
    this.pos += text.length
    return true
  }
  expect(text: string, expecting = JSON.stringify(text)): void {
    if (!this.eat(text)) this.fail(expecting)
  }
  skipSpaces(): void {
    while (this.char() === ' ' || this.char() === '\t') this.pos++
  }
  rest(): string {
    return this.input.slice(this.pos)
  }
  fail(expecting: string): never {
    throw queryParamError(this.what, this.input, this.pos, expecting)
  }
  /** Runs a parser; if it fails, rewinds and returns undefined (Parsec's `try`). */
  attempt<T>(parse: () => T): T | undefined {
    const start = this.pos
    try {
      return parse()
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      this.pos = start
      return undefined
    }
  }
}

const IDENTIFIER_CHAR = /^[\p{L}\p{N}_ $]$/u

function identifier(c: Cursor, expecting: string): string {
  const start = c.pos
  while (!c.done && IDENTIFIER_CHAR.test(c.char())) c.pos += c.char().length
  const value = c.input.slice(start, c.pos).trim()
  if (value === '') {
    c.pos = start
    c.fail(expecting)
  }
  return value
}

function quotedValue(c: Cursor): string {
  c.expect('"')
  let value = ''
  for (;;) {
    if (c.done) c.fail('closing "')
    const ch = c.char()
    c.pos += ch.length
    if (ch === '"') return value
    if (ch === '\\') {
      if (c.done) c.fail('escaped character')
      const escaped = c.char()
      c.pos += escaped.length
      value += escaped
    } else {
      value += ch
    }
  }
}

/** Runs of identifier characters joined by dashes (a dash not starting `->`). */
function dashSeparated(c: Cursor, part: () => string): string {
  const parts = [part()]
  while (c.startsWith('-') && !c.startsWith('->')) {
    c.pos++
    parts.push(part())
  }
  return parts.join('-')
}

function fieldName(c: Cursor): string {
  const name = c.char() === '"' ? quotedValue(c) : dashSeparated(c, () => identifier(c, 'field name (* or [a..z0..9_$])'))
  if (name.includes('\0')) c.fail('field name without NUL characters')
  return name
}

function jsonKeyName(c: Cursor): string {
  if (c.char() === '"') return quotedValue(c)
  return dashSeparated(c, () => {
    const start = c.pos
    while (!c.done && !'(-:.,>)'.includes(c.char())) c.pos += c.char().length
    const value = c.input.slice(start, c.pos).trim()
    if (c.pos === start) c.fail('any non reserved character different from: .,>()')
    return value
  })
}

function jsonPath(c: Cursor): JsonStep[] {
  const steps: JsonStep[] = []
  for (;;) {
    const arrow = c.startsWith('->>') ? '->>' : c.startsWith('->') ? '->' : undefined
    if (!arrow) return steps
    if (steps.length === MAX_JSON_STEPS) c.fail(`at most ${MAX_JSON_STEPS} JSON path steps`)
    c.pos += arrow.length
    const index = /^-?[0-9]+/.exec(c.rest())?.[0]
    const after = index === undefined ? '' : c.input.slice(c.pos + index.length)
    if (index !== undefined && (after === '' || ['->', '::', '.', ',', ')'].some((end) => after.startsWith(end)))) {
      c.pos += index.length
      steps.push({ arrow, kind: 'index', value: index })
    } else {
      const key = jsonKeyName(c)
      if (key.includes('\0')) c.fail('a JSON key without NUL characters')
      steps.push({ arrow, kind: 'key', value: key })
    }
  }
}

function field(c: Cursor): Field {
  c.skipSpaces()
  const name = fieldName(c)
  const path = jsonPath(c)
  c.skipSpaces()
  return { name, jsonPath: path }
}

function castType(c: Cursor): string {
  return identifier(c, 'letter or digit')
}

// ---------------------------------------------------------------- select

function atItemEnd(c: Cursor): boolean {
  return c.done || c.startsWith(')') || c.startsWith(',')
}

function aliasPrefix(c: Cursor): string | undefined {
  return c.attempt(() => {
    const alias = fieldName(c)
    if (!c.startsWith(':') || c.startsWith('::')) c.fail('":"')
    c.pos++
    if (alias === '') c.fail('a non-empty alias')
    return alias
  })
}

function embedParams(c: Cursor): { hint?: string; joinType?: JoinType } {
  const result: { hint?: string; joinType?: JoinType } = {}
  for (let i = 0; i < 2 && c.eat('!'); i++) {
    const value = fieldName(c)
    if (value === 'inner' || value === 'left') result.joinType ??= value
    else result.hint ??= value
  }
  return result
}

function selectForest(c: Cursor, depth: number): SelectItem[] {
  if (depth > MAX_DEPTH) c.fail(`at most ${MAX_DEPTH} levels of embedding`)
  const items: SelectItem[] = []
  c.skipSpaces()
  if (c.done || c.startsWith(')')) return items
  for (;;) {
    c.skipSpaces()
    items.push(selectItem(c, depth))
    c.skipSpaces()
    if (!c.eat(',')) return items
  }
}

function embedChildren(c: Cursor, depth: number): SelectItem[] {
  c.expect('(')
  const children = selectForest(c, depth + 1)
  c.expect(')', '")" or ","')
  return children
}

function selectItem(c: Cursor, depth: number): SelectItem {
  if (c.eat('...')) {
    const relation = fieldName(c)
    const params = embedParams(c)
    if (!c.startsWith('(')) c.fail('"("')
    return { type: 'embed', relation, spread: true, ...params, children: embedChildren(c, depth) }
  }

  const relation = c.attempt(() => {
    const alias = aliasPrefix(c)
    const name = fieldName(c)
    if (name === 'count') c.fail('a relation')
    const params = embedParams(c)
    if (!c.startsWith('(')) c.fail('"("')
    return { alias, name, params }
  })
  if (relation) {
    return {
      type: 'embed',
      relation: relation.name,
      spread: false,
      ...(relation.alias === undefined ? {} : { alias: relation.alias }),
      ...relation.params,
      children: embedChildren(c, depth),
    }
  }

  if (c.startsWith('*')) {
    c.pos++
    c.skipSpaces()
    if (!atItemEnd(c)) c.fail('")", "," or end of input')
    return { type: 'star' }
  }

  const alias = aliasPrefix(c)
  if (c.eat('count()')) {
    const aggregateCast = c.eat('::') ? castType(c) : undefined
    c.skipSpaces()
    if (!atItemEnd(c)) c.fail('")", "," or end of input')
    return { type: 'field', field: { name: '*', jsonPath: [] }, aggregate: 'count', ...(alias ? { alias } : {}), ...(aggregateCast ? { aggregateCast } : {}) }
  }
  const selected = field(c)
  const cast = c.eat('::') ? castType(c) : undefined
  let aggregate: AggregateFunction | undefined
  const match = /^\.(sum|avg|count|max|min)\(\)/.exec(c.rest())
  if (match) {
    aggregate = match[1] as AggregateFunction
    c.pos += match[0].length
  }
  const aggregateCast = aggregate && c.eat('::') ? castType(c) : undefined
  c.skipSpaces()
  if (!atItemEnd(c)) c.fail('letter, digit, "-", "->>", "->", "::", ".", ")", "," or end of input')
  return {
    type: 'field',
    field: selected,
    ...(alias ? { alias } : {}),
    ...(cast ? { cast } : {}),
    ...(aggregate ? { aggregate } : {}),
    ...(aggregateCast ? { aggregateCast } : {}),
  }
}

export function parseSelect(input: string): SelectItem[] {
  const c = new Cursor(input, 'select parameter')
  const items = selectForest(c, 0)
  if (!c.done) c.fail('",", ")" or end of input')
  return items
}

// ---------------------------------------------------------------- filters

const QUANTIFIABLE: QuantifiableOperator[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch']
const SIMPLE: SimpleOperator[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj']
const FTS: FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts']
const IS_VALUES: IsValue[] = ['null', 'not_null', 'true', 'false', 'unknown']

/** A value in a logic tree ends at "," or ")" unless quoted or written as a Postgres array literal. */
function logicValue(c: Cursor): string {
  const quoted = c.attempt(() => {
    const value = quotedValue(c)
    if (!c.done && !c.startsWith(',') && !c.startsWith(')')) c.fail('"," or ")"')
    return value
  })
  if (quoted !== undefined) return quoted
  const array = /^\{[^{}]*\}/.exec(c.rest())?.[0]
  if (array !== undefined) {
    c.pos += array.length
    return array
  }
  return untilDelimiter(c)
}

function untilDelimiter(c: Cursor): string {
  const start = c.pos
  while (!c.done && !c.startsWith(',') && !c.startsWith(')')) c.pos += c.char().length
  return c.input.slice(start, c.pos)
}

function listValue(c: Cursor): string[] {
  c.skipSpaces()
  c.expect('(')
  c.skipSpaces()
  const values: string[] = []
  for (;;) {
    const quoted = c.attempt(() => {
      const value = quotedValue(c)
      if (!c.startsWith(',') && !c.startsWith(')')) c.fail('"," or ")"')
      return value
    })
    values.push(quoted ?? untilDelimiter(c))
    if (!c.eat(',')) break
  }
  c.expect(')', '"," or ")"')
  c.skipSpaces()
  return values
}

/** `[not.]operator[(modifier)].value`; `value` reads the value (to the end, or to "," / ")" in a logic tree). */
function operatorExpression(c: Cursor, value: (c: Cursor) => string, inLogicTree: boolean): { negate: boolean; operation: Operation } {
  const negate = c.eat('not.')
  const name = /^[a-z]+/.exec(c.rest())?.[0] ?? ''
  const expecting = 'operator (eq, gt, ...)'
  const operation = ((): Operation => {
    if (name === 'in') {
      c.pos += 2
      c.expect('.', 'delimiter (.)')
      return { op: 'in', values: listValue(c) }
    }
    if (name === 'is') {
      c.pos += 2
      c.expect('.', 'delimiter (.)')
      const start = c.pos
      const raw = inLogicTree ? untilDelimiter(c) : c.rest()
      const found = IS_VALUES.find((candidate) => candidate === raw.toLowerCase())
      if (!found) {
        c.pos = start
        c.fail('isVal: (null, not_null, true, false, unknown)')
      }
      if (!inLogicTree) c.pos = c.input.length
      return { op: 'is', value: found }
    }
    if (name === 'isdistinct') {
      c.pos += name.length
      c.expect('.', 'delimiter (.)')
      return { op: 'isdistinct', value: value(c) }
    }
    if ((FTS as string[]).includes(name)) {
      c.pos += name.length
      let config: string | undefined
      if (c.eat('(')) {
        config = identifier(c, 'a text search configuration')
        c.expect(')')
      }
      c.expect('.', 'delimiter (.)')
      return { op: name as FtsOperator, ...(config ? { config } : {}), value: value(c) }
    }
    if ((SIMPLE as string[]).includes(name)) {
      c.pos += name.length
      c.expect('.', 'delimiter (.)')
      return { op: name as SimpleOperator, value: value(c) }
    }
    if ((QUANTIFIABLE as string[]).includes(name)) {
      c.pos += name.length
      let quantifier: 'any' | 'all' | undefined
      if (c.eat('(any)')) quantifier = 'any'
      else if (c.eat('(all)')) quantifier = 'all'
      c.expect('.', 'delimiter (.)')
      return { op: name as QuantifiableOperator, ...(quantifier ? { quantifier } : {}), value: value(c) }
    }
    return c.fail(expecting)
  })()
  return { negate, operation }
}

const restOfInput = (c: Cursor): string => {
  const value = c.rest()
  c.pos = c.input.length
  return value
}

/** The value of a filter parameter, such as `eq.5` or `not.in.(1,2)`. */
export function parseFilterValue(input: string): { negate: boolean; operation: Operation } {
  const c = new Cursor(input, 'filter')
  const expression = operatorExpression(c, restOfInput, false)
  if (!c.done) c.fail('end of input')
  return expression
}

function logicTree(c: Cursor, depth: number): LogicTree {
  if (depth > MAX_DEPTH) c.fail(`at most ${MAX_DEPTH} levels of nesting`)
  const filter = c.attempt(() => {
    const target = field(c)
    c.expect('.', 'delimiter (.)')
    const { negate, operation } = operatorExpression(c, logicValue, true)
    return { field: target, negate, operation }
  })
  if (filter) return { type: 'filter', filter }
  const negate = c.eat('not.')
  const operator = c.eat('and') ? 'and' : c.eat('or') ? 'or' : c.fail('logic operator (and, or)')
  c.skipSpaces()
  c.expect('(')
  const children: LogicTree[] = []
  for (;;) {
    c.skipSpaces()
    children.push(logicTree(c, depth + 1))
    c.skipSpaces()
    if (!c.eat(',')) break
  }
  c.expect(')', '"," or ")"')
  c.skipSpaces()
  return { type: 'expr', negate, operator, children }
}

/** `or=(a.eq.1,and(b.gt.2,c.is.null))`: the operator comes from the parameter name, the rest from its value. */
export function parseLogicTree(operator: string, value: string): LogicTree {
  const c = new Cursor(operator + value, 'logic tree')
  const tree = logicTree(c, 0)
  if (!c.done) c.fail('end of input')
  return tree
}

// ---------------------------------------------------------------- paths, order, columns

/** A parameter name: `col`, `rel.col`, `rel.col->key` (json path allowed only when `withJson`). */
export function parseTreePath(input: string, withJson: boolean): { path: string[]; field: Field } {
  const c = new Cursor(input, 'tree path')
  const names = [fieldName(c)]
  while (c.eat('.')) names.push(fieldName(c))
  const steps = withJson ? jsonPath(c) : []
  if (!c.done) c.fail('delimiter (.), "->" or end of input')
  return { path: names.slice(0, -1), field: { name: names[names.length - 1]!, jsonPath: steps } }
}

export function parseOrder(input: string): OrderTerm[] {
  const c = new Cursor(input, 'order')
  const terms: OrderTerm[] = []
  for (;;) {
    c.skipSpaces()
    const related = c.attempt(() => {
      const relation = fieldName(c)
      c.expect('(')
      const target = field(c)
      c.expect(')')
      return { relation, field: target }
    })
    const term: OrderTerm = related ?? { field: field(c) }
    if (c.eat('.asc')) term.direction = 'asc'
    else if (c.eat('.desc')) term.direction = 'desc'
    if (c.eat('.nullsfirst')) term.nulls = 'first'
    else if (c.eat('.nullslast')) term.nulls = 'last'
    c.skipSpaces()
    terms.push(term)
    if (c.done) return terms
    c.expect(',', '"asc", "desc", "nullsfirst", "nullslast", "," or end of input')
  }
}

/** `columns=` and `on_conflict=`: field names separated by commas. */
export function parseColumnList(input: string, what: string): string[] {
  const c = new Cursor(input, what)
  const names: string[] = []
  for (;;) {
    c.skipSpaces()
    names.push(fieldName(c))
    c.skipSpaces()
    if (c.done) return names
    c.expect(',', '"," or end of input')
  }
}
