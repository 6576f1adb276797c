import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grantFunctionsSql, startRestBackend, type RestBackend } from './support/rest'

// Conformance with PostgREST for what a Supabase developer uses beyond foreign keys between tables: computed columns
// and computed relationships (functions taking a table's row), embedding through views and through the rows a
// function returns, and what PostgREST answers to schemas and media types it does not serve. Each expectation is
// PostgREST's documented answer (docs.postgrest.org), on tables of this file's own.

const FIXTURES = `
create table public.c2_users (username text primary key, status text not null default 'EN LIGNE');
create table public.c2_channels (id bigint primary key, slug text not null);
create table public.c2_messages (
  id bigint primary key,
  message text,
  username text not null references public.c2_users,
  channel_id bigint not null references public.c2_channels
);
insert into public.c2_users values ('ana', 'EN LIGNE'), ('ben', 'HORS LIGNE'), ('chloe', 'EN LIGNE');
insert into public.c2_channels values (1, 'general'), (2, 'random'), (3, 'annonces');
insert into public.c2_messages values (1, 'Bonjour', 'ana', 1), (2, 'Salut', 'ben', 1), (3, 'Coucou', 'ana', 2);

-- A computed column: a function of the row, with one parameter of the table's type.
create function public.c2_blurb(public.c2_messages) returns text language sql stable as $$ select left($1.message, 3) $$;
-- Computed relationships: to-many (setof), to-one (setof … rows 1, and a single row).
create function public.c2_channel_messages(public.c2_channels) returns setof public.c2_messages language sql stable as $$
  select * from public.c2_messages where channel_id = $1.id $$;
create function public.c2_author(public.c2_messages) returns setof public.c2_users rows 1 language sql stable as $$
  select * from public.c2_users where username = $1.username $$;
create function public.c2_last_message(public.c2_channels) returns public.c2_messages language sql stable as $$
  select * from public.c2_messages where channel_id = $1.id order by id desc limit 1 $$;

-- Views whose columns come from the tables' foreign-key columns, under other names, and a view of a view.
create view public.c2_message_view as select id as message_id, message as body, username as author, channel_id from public.c2_messages;
create view public.c2_message_view_2 as select message_id, author from public.c2_message_view;
create view public.c2_channel_view as select id as channel, slug from public.c2_channels;
create view public.c2_user_view as select username as name, status from public.c2_users;
-- A column name that the query tree must escape (a space, braces, a parenthesis).
create view public.c2_user_odd as select username as "the {user} (1)", status from public.c2_users;
-- Views of tables in a schema that is not exposed, whose foreign key joins them (Supabase's "private schema" pattern).
create schema c2_private;
create table c2_private.owners (id int primary key, name text not null);
create table c2_private.pets (id int primary key, name text not null, owner_id int references c2_private.owners);
insert into c2_private.owners values (1, 'Inès'), (2, 'Jules');
insert into c2_private.pets values (1, 'Rex', 1), (2, 'Mistigri', 1), (3, 'Errant', null);
create view public.c2_owners as select id, name from c2_private.owners;
create view public.c2_pets as select id, name, owner_id from c2_private.pets;

-- Functions returning a table's rows and a view's rows.
create function public.c2_messages_by(name text) returns setof public.c2_messages language sql stable as $$
  select * from public.c2_messages where username = name order by id $$;
create function public.c2_view_by(name text) returns setof public.c2_message_view language sql stable as $$
  select * from public.c2_message_view where author = name order by message_id $$;

-- Another schema, exposed only when the server's configuration lists it.
create schema c2_api;
grant usage on schema c2_api to anon, authenticated, service_role;
create table c2_api.items (id int primary key, label text not null);
create table c2_api.notes (id int primary key, item_id int not null references c2_api.items, body text not null);
insert into c2_api.items values (1, 'Clavier'), (2, 'Écran');
insert into c2_api.notes values (1, 1, 'à remplacer');
create function c2_api.search_path() returns text language sql stable as $$ select current_setting('search_path') $$;
grant select, insert, update, delete on all tables in schema c2_api to anon, authenticated, service_role;
grant execute on function c2_api.search_path() to anon, authenticated, service_role;

grant select, insert, update, delete on public.c2_users, public.c2_channels, public.c2_messages, public.c2_message_view,
  public.c2_message_view_2, public.c2_channel_view, public.c2_user_view, public.c2_user_odd, public.c2_owners, public.c2_pets to anon, authenticated, service_role;
${grantFunctionsSql('c2_')}
`

let backend: RestBackend
let anon: SupabaseClient
beforeAll(async () => {
  // PostgREST's db-schemas and db-plan-enabled, which Supabase leaves at `public` and off (see the last tests).
  backend = await startRestBackend(FIXTURES, { exposedSchemas: ['public', 'c2_api'], planEnabled: true })
  anon = backend.anon()
})
afterAll(() => backend.close())

async function body(response: Response): Promise<unknown> {
  return JSON.parse(await response.text()) as unknown
}

describe('computed columns', () => {
  it('selects a function of the row as a column, under its name or an alias', async () => {
    const { data, error } = await anon.from('c2_messages').select('message, c2_blurb, court:c2_blurb').order('id')
    expect(error).toBeNull()
    expect(data).toEqual([
      { message: 'Bonjour', c2_blurb: 'Bon', court: 'Bon' },
      { message: 'Salut', c2_blurb: 'Sal', court: 'Sal' },
      { message: 'Coucou', c2_blurb: 'Cou', court: 'Cou' },
    ])
  })

  it('leaves computed columns out of *, as PostgREST does', async () => {
    const { data, error } = await anon.from('c2_messages').select('*').eq('id', 1)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 1, message: 'Bonjour', username: 'ana', channel_id: 1 }])
  })

  it('filters and orders by a computed column', async () => {
    const filtered = await anon.from('c2_messages').select('id').eq('c2_blurb', 'Sal')
    expect(filtered).toMatchObject({ error: null, data: [{ id: 2 }] })
    const ordered = await anon.from('c2_messages').select('id').order('c2_blurb', { ascending: false })
    expect(ordered).toMatchObject({ error: null, data: [{ id: 2 }, { id: 3 }, { id: 1 }] })
  })

  it('selects a computed column inside an embed and in the rows an insert returns', async () => {
    const embedded = await anon.from('c2_channels').select('id, c2_messages(c2_blurb)').eq('id', 2)
    expect(embedded).toMatchObject({ error: null, data: [{ id: 2, c2_messages: [{ c2_blurb: 'Cou' }] }] })
    const service = backend.service()
    const inserted = await service.from('c2_messages').insert({ id: 10, message: 'Au revoir', username: 'chloe', channel_id: 3 }).select('id, c2_blurb')
    expect(inserted).toMatchObject({ error: null, status: 201, data: [{ id: 10, c2_blurb: 'Au ' }] })
    await service.from('c2_messages').delete().eq('id', 10)
  })

  it('still answers 42703 for a name that is neither a column nor a computed column', async () => {
    const response = await backend.rest('/c2_messages?select=c2_blurbs')
    expect(response.status).toBe(400)
    expect(await body(response)).toEqual({ code: '42703', details: null, hint: null, message: 'column c2_messages.c2_blurbs does not exist' })
  })

  it('cannot write a computed column: PGRST204 as for any unknown column', async () => {
    const response = await backend.rest('/c2_messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 11, message: 'x', username: 'ana', channel_id: 1, c2_blurb: 'y' }),
    })
    expect(response.status).toBe(400)
    expect(await body(response)).toMatchObject({ code: 'PGRST204', message: "Could not find the 'c2_blurb' column of 'c2_messages' in the schema cache" })
  })
})

describe('computed relationships', () => {
  it('embeds the rows a set-returning function of the row gives, as an array (empty when none)', async () => {
    const { data, error } = await anon.from('c2_channels').select('id, c2_channel_messages(id, message)').order('id')
    expect(error).toBeNull()
    expect(data).toEqual([
      { id: 1, c2_channel_messages: [{ id: 1, message: 'Bonjour' }, { id: 2, message: 'Salut' }] },
      { id: 2, c2_channel_messages: [{ id: 3, message: 'Coucou' }] },
      { id: 3, c2_channel_messages: [] },
    ])
  })

  it('filters, orders and limits a computed to-many embed, and !inner drops the rows without a match', async () => {
    const { data, error } = await anon
      .from('c2_channels')
      .select('id, c2_channel_messages!inner(id)')
      .neq('c2_channel_messages.username', 'ben')
      .order('id', { referencedTable: 'c2_channel_messages', ascending: false })
      .order('id')
    expect(error).toBeNull()
    expect(data).toEqual([
      { id: 1, c2_channel_messages: [{ id: 1 }] },
      { id: 2, c2_channel_messages: [{ id: 3 }] },
    ])
  })

  it('embeds a function returning one row as an object: for setof … rows 1 null when none, for a single row one of nulls', async () => {
    const authors = await anon.from('c2_messages').select('id, c2_author(username, status)').order('id')
    expect(authors).toMatchObject({
      error: null,
      data: [
        { id: 1, c2_author: { username: 'ana', status: 'EN LIGNE' } },
        { id: 2, c2_author: { username: 'ben', status: 'HORS LIGNE' } },
        { id: 3, c2_author: { username: 'ana', status: 'EN LIGNE' } },
      ],
    })
    const last = await anon.from('c2_channels').select('id, last:c2_last_message(message)').order('id')
    expect(last).toMatchObject({
      error: null,
      data: [
        { id: 1, last: { message: 'Salut' } },
        { id: 2, last: { message: 'Coucou' } },
        // As PostgREST answers postgrest-js's function_using_table_returns: the function's null row, column by column.
        { id: 3, last: { message: null } },
      ],
    })
  })

  it('nests embeds inside a computed relationship and a computed column beside it', async () => {
    const { data, error } = await anon.from('c2_channels').select('slug, c2_channel_messages(c2_blurb, c2_users(status))').eq('id', 2)
    expect(error).toBeNull()
    expect(data).toEqual([{ slug: 'random', c2_channel_messages: [{ c2_blurb: 'Cou', c2_users: { status: 'EN LIGNE' } }] }])
  })
})

describe('embedding through views', () => {
  it("follows a view's columns to its base table's foreign keys, both ways", async () => {
    const fromView = await anon.from('c2_message_view').select('message_id, c2_users(status), c2_channels(slug)').order('message_id')
    expect(fromView).toMatchObject({
      error: null,
      data: [
        { message_id: 1, c2_users: { status: 'EN LIGNE' }, c2_channels: { slug: 'general' } },
        { message_id: 2, c2_users: { status: 'HORS LIGNE' }, c2_channels: { slug: 'general' } },
        { message_id: 3, c2_users: { status: 'EN LIGNE' }, c2_channels: { slug: 'random' } },
      ],
    })
    const toView = await anon.from('c2_users').select('username, c2_message_view(body)').order('username')
    expect(toView).toMatchObject({
      error: null,
      data: [
        { username: 'ana', c2_message_view: [{ body: 'Bonjour' }, { body: 'Coucou' }] },
        { username: 'ben', c2_message_view: [{ body: 'Salut' }] },
        { username: 'chloe', c2_message_view: [] },
      ],
    })
  })

  it('embeds a view in a view, and through a view of a view', async () => {
    const views = await anon.from('c2_channel_view').select('slug, c2_message_view(message_id)').order('channel')
    expect(views).toMatchObject({
      error: null,
      data: [
        { slug: 'general', c2_message_view: [{ message_id: 1 }, { message_id: 2 }] },
        { slug: 'random', c2_message_view: [{ message_id: 3 }] },
        { slug: 'annonces', c2_message_view: [] },
      ],
    })
    const nested = await anon.from('c2_message_view_2').select('message_id, c2_users(status)').eq('message_id', 2)
    expect(nested).toMatchObject({ error: null, data: [{ message_id: 2, c2_users: { status: 'HORS LIGNE' } }] })
  })

  it('embeds a view of the target by its name; the foreign-key column still names the table, not the view', async () => {
    const { data, error } = await anon.from('c2_messages').select('id, c2_user_view(name), author:username(status)').eq('id', 2)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 2, c2_user_view: { name: 'ben' }, author: { status: 'HORS LIGNE' } }])
  })

  it('follows a view column whatever its name', async () => {
    const { data, error } = await anon.from('c2_messages').select('id, c2_user_odd(status)').eq('id', 2)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 2, c2_user_odd: { status: 'HORS LIGNE' } }])
  })

  it("joins views of tables in a schema that is not exposed through those tables' foreign key", async () => {
    const pets = await anon.from('c2_pets').select('name, c2_owners(name)').order('id')
    expect(pets).toMatchObject({
      error: null,
      data: [
        { name: 'Rex', c2_owners: { name: 'Inès' } },
        { name: 'Mistigri', c2_owners: { name: 'Inès' } },
        { name: 'Errant', c2_owners: null },
      ],
    })
    const owners = await anon.from('c2_owners').select('name, c2_pets(name)').order('id')
    expect(owners).toMatchObject({
      error: null,
      data: [
        { name: 'Inès', c2_pets: [{ name: 'Rex' }, { name: 'Mistigri' }] },
        { name: 'Jules', c2_pets: [] },
      ],
    })
  })

  it('answers PGRST200 for a view whose columns do not carry the foreign key', async () => {
    const response = await backend.rest('/c2_message_view_2?select=message_id,c2_channels(slug)')
    expect(response.status).toBe(400)
    expect(await body(response)).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'c2_message_view_2' and 'c2_channels' in the schema cache",
    })
  })
})

describe('embedding through the rows a function returns', () => {
  it("embeds through the foreign keys of the returned table's rows", async () => {
    const { data, error } = await anon.rpc('c2_messages_by', { name: 'ana' }).select('channel_id, c2_users(status), c2_channels(slug)')
    expect(error).toBeNull()
    expect(data).toEqual([
      { channel_id: 1, c2_users: { status: 'EN LIGNE' }, c2_channels: { slug: 'general' } },
      { channel_id: 2, c2_users: { status: 'EN LIGNE' }, c2_channels: { slug: 'random' } },
    ])
  })

  it("embeds through a returned view's columns, and selects a computed column of the returned rows", async () => {
    const view = await backend.rest('/rpc/c2_view_by?name=ben&select=author,c2_channels(slug)')
    expect(view.status).toBe(200)
    expect(await body(view)).toEqual([{ author: 'ben', c2_channels: { slug: 'general' } }])
    const computed = await anon.rpc('c2_messages_by', { name: 'ben' }).select('id, c2_blurb, c2_author(status)')
    expect(computed).toMatchObject({ error: null, data: [{ id: 2, c2_blurb: 'Sal', c2_author: { status: 'HORS LIGNE' } }] })
  })
})

describe('other exposed schemas', () => {
  it('reads, embeds and calls in the schema Accept-Profile names, and says which one answered', async () => {
    const api = anon.schema('c2_api')
    const notes = await api.from('notes').select('body, items(label)')
    expect(notes).toMatchObject({ error: null, data: [{ body: 'à remplacer', items: { label: 'Clavier' } }] })
    const response = await backend.rest('/items?select=label&order=id', { headers: { 'Accept-Profile': 'c2_api' } })
    expect(response.headers.get('content-profile')).toBe('c2_api')
    expect(await body(response)).toEqual([{ label: 'Clavier' }, { label: 'Écran' }])
    // The function runs with the request's schema first on its search path.
    const { data, error } = await api.rpc('search_path')
    expect(error).toBeNull()
    expect(data).toBe('"c2_api", "public", "extensions"')
  })

  it('writes in the schema Content-Profile names', async () => {
    const api = backend.service().schema('c2_api')
    const inserted = await api.from('items').insert({ id: 3, label: 'Souris' }).select()
    expect(inserted).toMatchObject({ error: null, status: 201, data: [{ id: 3, label: 'Souris' }] })
    const { count } = await api.from('items').delete({ count: 'exact' }).eq('id', 3)
    expect(count).toBe(1)
  })

  it("looks a relation up in the request's schema only: PGRST205 names that schema", async () => {
    const inPublic = await backend.rest('/items')
    expect(inPublic.status).toBe(404)
    expect(await body(inPublic)).toMatchObject({ code: 'PGRST205', message: "Could not find the table 'public.items' in the schema cache" })
    const inApi = await backend.rest('/c2_users', { headers: { 'Accept-Profile': 'c2_api' } })
    expect(inApi.status).toBe(404)
    expect(await body(inApi)).toMatchObject({ code: 'PGRST205', message: "Could not find the table 'c2_api.c2_users' in the schema cache" })
  })

  it('refuses a schema that is not exposed with 406 PGRST106, for reads and writes', async () => {
    const expected = { code: 'PGRST106', details: null, hint: 'Only the following schemas are exposed: public, c2_api', message: 'Invalid schema: auth' }
    const read = await backend.rest('/users', { headers: { 'Accept-Profile': 'auth' } })
    expect(read.status).toBe(406)
    expect(await body(read)).toEqual(expected)
    const write = await backend.rest('/users', { method: 'POST', headers: { 'Content-Profile': 'auth', 'Content-Type': 'application/json' }, body: '{}' })
    expect(write.status).toBe(406)
    expect(await body(write)).toEqual(expected)
  })
})

describe('execution plans', () => {
  it("answers the read's plan as JSON or text when the media type asks for it", async () => {
    const json = await backend.rest('/c2_messages?select=id,c2_users(status)&id=eq.1', { headers: { Accept: 'application/vnd.pgrst.plan+json' } })
    expect(json.status).toBe(200)
    expect(json.headers.get('content-type')).toBe('application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8')
    const [plan] = (await body(json)) as Array<{ Plan: { 'Node Type': string } }>
    expect(plan?.Plan['Node Type']).toEqual(expect.any(String))
    const text = await backend.rest('/c2_messages?id=eq.1', { headers: { Accept: 'application/vnd.pgrst.plan; for="text/csv"' } })
    expect(text.status).toBe(200)
    expect(text.headers.get('content-type')).toBe('application/vnd.pgrst.plan+text; for="text/csv"; charset=utf-8')
    expect(await text.text()).toMatch(/cost=/)
  })

  it('explains a write with analyze and leaves the data as it was', async () => {
    const service = backend.service()
    const response = await backend.rest('/c2_users', {
      method: 'POST',
      headers: {
        apikey: backend.server.config.serviceRoleKey,
        Authorization: `Bearer ${backend.server.config.serviceRoleKey}`,
        'Content-Type': 'application/json',
        Accept: 'application/vnd.pgrst.plan+json; options=analyze',
      },
      body: JSON.stringify({ username: 'dora' }),
    })
    expect(response.status).toBe(200)
    const [plan] = (await body(response)) as Array<{ Plan: Record<string, unknown> }>
    expect(plan?.Plan['Actual Rows']).toEqual(expect.any(Number))
    const { data } = await service.from('c2_users').select('username').eq('username', 'dora')
    expect(data).toEqual([])
  })
})

describe('as Supabase is configured: public only, no plans', () => {
  let plain: RestBackend
  beforeAll(async () => {
    plain = await startRestBackend()
  })
  afterAll(() => plain.close())

  it('refuses any other schema with PGRST106', async () => {
    const response = await plain.rest('/items', { headers: { 'Accept-Profile': 'c2_api' } })
    expect(response.status).toBe(406)
    expect(await body(response)).toEqual({ code: 'PGRST106', details: null, hint: 'Only the following schemas are exposed: public', message: 'Invalid schema: c2_api' })
  })

  it('refuses the plan media type with 406 PGRST107, as PostgREST does with db-plan-enabled off', async () => {
    const response = await plain.rest('/demo_accounts', { headers: { Accept: 'application/vnd.pgrst.plan+json' } })
    expect(response.status).toBe(406)
    expect(await body(response)).toEqual({ code: 'PGRST107', details: null, hint: null, message: 'None of these media types are available: application/vnd.pgrst.plan+json' })
  })
})
