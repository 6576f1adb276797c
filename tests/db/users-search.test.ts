// The users page's search reads one generated column, public.users.search_text: the first and last names, e-mail,
// position and department, one per line. Each word of a search must be in it (the API's filter, written here as
// PostgREST sends it); a word never spans two fields; the column follows every change and is never written; the audit
// trail leaves it out. On PostgreSQL, a search of a few thousand people reads its one trigram index.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo } from './support/actors'
import { auditMark, auditSince, count, expectRefused, one } from './support/fixtures'

let db: Database
let jean: { id: string; email: string }

beforeAll(async () => {
  db = await freshDatabase()
  const email = `jean.dupont.${randomUUID().slice(0, 8)}@exemple.fr`
  jean = await actAs(db, 'admin', (tx) =>
    one<{ id: string; email: string }>(
      tx,
      `insert into public.users (email, first_name, last_name, position, department)
       values ($1, 'Jean', 'Dupont', 'Gestionnaire de paie', 'Trésorerie') returning id, email`,
      [email],
    ),
  )
})
afterAll(() => db.close())

/** The e-mails a search finds, as the users page asks for them: search_text ILIKE '%word%' for each word. */
async function search(tx: Sql, text: string): Promise<string[]> {
  const words = text.split(/\s+/).filter(Boolean)
  const where = words.map((_, index) => `search_text ilike '%' || $${index + 1} || '%'`).join(' and ')
  const { rows } = await tx.query<{ email: string }>(`select email from public.users where ${where} order by email`, words)
  return rows.map((row) => row.email)
}

const searchAsAdmin = (text: string) => actAs(db, 'admin', (tx) => search(tx, text))

describe('the users search', () => {
  it('finds a person by each of the five fields, in any case', async () => {
    for (const word of ['jean', 'DUPONT', jean.email.slice(0, 18), 'gestionnaire', 'trésorerie']) {
      expect(await searchAsAdmin(word), word).toEqual([jean.email])
    }
  })

  it('takes each word in any field, all of them required', async () => {
    expect(await searchAsAdmin('jean dupont')).toEqual([jean.email])
    expect(await searchAsAdmin('dupont trésorerie jean')).toEqual([jean.email])
    expect(await searchAsAdmin('jean introuvable')).toEqual([])
  })

  it('never matches a word across two fields', async () => {
    // The end of one field and the start of the next, without the space a person would type.
    for (const word of ['jeandupont', 'andu', 'dupontjean', 'paietrésorerie', 'frgestionnaire']) {
      expect(await searchAsAdmin(word), word).toEqual([])
    }
  })

  it('follows a change of department, and a position emptied', async () => {
    await actAs(db, 'admin', (tx) => tx.query(`update public.users set department = 'Audit interne', position = null where id = $1`, [jean.id]))
    expect(await searchAsAdmin('audit interne')).toContain(jean.email)
    expect(await searchAsAdmin('dupont trésorerie')).toEqual([])
    expect(await searchAsAdmin('dupont gestionnaire')).toEqual([])
    await actAs(db, 'admin', (tx) =>
      tx.query(`update public.users set department = 'Trésorerie', position = 'Gestionnaire de paie' where id = $1`, [jean.id]),
    )
  })
})

describe('search_text is derived, never written', () => {
  it('is refused to an administrator and to the service role, on update and on insert', async () => {
    // Postgres refuses it as it reads the statement, before any privilege is checked.
    expectRefused(
      await attempt(db, 'admin', (tx) => tx.query(`update public.users set search_text = 'x' where id = $1`, [jean.id])),
      '428C9',
      /search_text/,
    )
    expectRefused(
      await attempt(db, 'admin', (tx) =>
        tx.query(`insert into public.users (email, first_name, last_name, search_text) values ('faux@exemple.fr', 'Faux', 'Texte', 'x')`),
      ),
      '428C9',
    )
    expectRefused(await attempt(db, 'service_role', (tx) => tx.query(`update public.users set search_text = 'x' where id = $1`, [jean.id])), '428C9')
    expect(await one(db, `select search_text from public.users where id = $1`, [jean.id])).toEqual({
      search_text: `Jean\nDupont\n${jean.email}\nGestionnaire de paie\nTrésorerie`,
    })
  })

  it('leaves a person free to stamp their own last sign-in, and nothing else', async () => {
    await actAs(db, 'user', (tx) => tx.query(`update public.users set last_login = '2026-11-02 08:00:00+00' where id = $1`, [demo.user.id]))
    expect(await count(db, `select count(*) from public.users where id = $1 and last_login = '2026-11-02 08:00:00+00'`, [demo.user.id])).toBe(1)
    expectRefused(
      await attempt(db, 'user', (tx) => tx.query(`update public.users set department = 'Direction' where id = $1`, [demo.user.id])),
      '42501',
      /dernière connexion/,
    )
  })

  it('stays out of the audit trail: a creation, a change and an import log the fields, not their copy', async () => {
    const mark = await auditMark(db)
    const created = await actAs(db, 'admin', (tx) =>
      one<{ id: string }>(tx, `insert into public.users (email, first_name, last_name) values ($1, 'Léa', 'Martin') returning id`, [
        `lea.${randomUUID().slice(0, 8)}@exemple.fr`,
      ]),
    )
    await actAs(db, 'admin', (tx) => tx.query(`update public.users set department = 'Achats' where id = $1`, [created.id]))
    const imported = `import.${randomUUID().slice(0, 8)}@exemple.fr`
    await actAs(db, 'admin', (tx) =>
      tx.query(`select public.import_directory($1::jsonb, false, false)`, [
        JSON.stringify([
          { line: 2, email: imported, first_name: 'Inès', last_name: 'Durand' },
          { line: 3, email: jean.email, first_name: 'Jean', last_name: 'Dupont', department: 'Juridique' },
        ]),
      ]),
    )
    const rows = (await auditSince(db, mark)).filter((row) => row.resource_type === 'users' && row.resource_id !== null)
    const create = rows.find((row) => row.action === 'create' && row.resource_id === created.id)!
    expect(create.details.new).toMatchObject({ first_name: 'Léa', last_name: 'Martin' })
    expect(create.details.new).not.toHaveProperty('search_text')
    expect(rows.find((row) => row.action === 'update' && row.resource_id === created.id)!.details).toEqual({
      changes: { department: { old: null, new: 'Achats' } },
    })
    const importedRow = rows.find((row) => row.action === 'create' && (row.details.new as { email?: string }).email === imported)!
    expect(importedRow.details.new).toMatchObject({ first_name: 'Inès' })
    expect(importedRow.details.new).not.toHaveProperty('search_text')
    expect(rows.find((row) => row.action === 'update' && row.resource_id === jean.id)!.details).toEqual({
      changes: {
        department: { old: 'Trésorerie', new: 'Juridique' },
        position: { old: 'Gestionnaire de paie', new: null },
      },
    })
    expect(await searchAsAdmin('dupont juridique')).toEqual([jean.email])
  })
})

// The plan needs pg_trgm, which PostgreSQL has and PGlite does not. The planner prices ILIKE '%word%' by the word's
// length alone (any four-letter word is 0.8 % of the table): the count reads the index for any word, but the page,
// ordered by name, may walk the name index instead for a short word, as it does at 120,000 people. So the page is
// checked on a whole last name, as the bench and people search.
describe.runIf(Boolean(process.env.DATABASE_URL))('the plan on PostgreSQL', () => {
  it('reads users_search_trgm_idx for a last name, and counts a four-letter word with it, among 5,000 people', async () => {
    expect(await count(db, `select count(*) from pg_indexes where indexname = 'users_search_trgm_idx'`)).toBe(1)
    // Names, positions and departments drawn from lists, as in a real directory: each value is common, each
    // combination rare; one person in 97 is a Dessaye.
    await db.query(
      `insert into public.users (email, first_name, last_name, position, department)
       select format('personne.%s@grande-entreprise.fr', g),
              (array['Marie','Pierre','Sophie','Nicolas','Camille','Julien','Claire','Thomas','Laura','Antoine'])[1 + g % 10],
              case when g % 97 = 0 then 'Dessaye' else
              (array['Martin','Bernard','Petit','Robert','Richard','Durand','Leroy','Moreau','Simon','Laurent','Lefebvre',
                     'Michel','Garcia','David','Bertrand','Roux','Vincent','Fournier','Morel','Girard'])[1 + (g / 10) % 20] end,
              (array['Analyste','Comptable','Chef de projet','Technicien','Juriste','Acheteur'])[1 + g % 6],
              (array['Finance','Ventes','Achats','Informatique','Juridique','Logistique','Marketing'])[1 + g % 7]
         from generate_series(1, 5000) g`,
    )
    // As autovacuum would: the new rows' index entries leave the GIN pending list, which the planner prices as a scan.
    await db.query(`vacuum analyze public.users`)
    const where = `search_text ilike '%dessaye%'`
    for (const query of [
      // The users page's two reads: its page, and count: 'exact'.
      `select * from public.users where ${where} order by last_name, first_name, id limit 50`,
      `select count(*) from public.users where ${where}`,
      `select count(*) from public.users where search_text ilike '%essa%'`,
    ]) {
      const plan = await actAs(db, 'admin', async (tx) => {
        await tx.query(`set local enable_seqscan = on`)
        const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${query}`)
        return JSON.stringify(rows[0]!['QUERY PLAN'])
      })
      expect(plan, query).toContain('"Index Name":"users_search_trgm_idx"')
      expect(plan, query).not.toContain('"Node Type":"Seq Scan"')
    }
    expect(await actAs(db, 'admin', (tx) => count(tx, `select count(*) from public.users where ${where}`))).toBe(51)
  })
})
