import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, connect as tcpConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A real OpenLDAP (Debian's slapd, .ci/with-slapd installs it) in a temporary directory, on ports the OS hands out:
 * ldap:// (StartTLS offered) and ldaps://, with a certificate of a CA generated for the run. The directory holds what
 * `ldif` says under dc=example,dc=org, loaded offline before the server starts; a service account
 * cn=recertif,ou=services may read everything and write the member attribute of groups only, as
 * docs/ldap-connector.md asks of the organisation's.
 */
export interface Slapd {
  ldapUrl: string
  ldapsUrl: string
  caFile: string
  suffix: string
  adminDn: string
  adminPassword: string
  serviceDn: string
  servicePassword: string
  /** Runs ldapmodify as the administrator, for a test's changes to the directory. */
  modify(ldif: string): Promise<void>
  stop(): Promise<void>
}

export const SUFFIX = 'dc=example,dc=org'
const SLAPD = '/usr/sbin/slapd'
const SERVICE_DN = `cn=recertif,ou=services,${SUFFIX}`

// The two attributes of Active Directory the connector reads by default and inetOrgPerson lacks.
const AD_SCHEMA = `
attributetype ( 1.3.6.1.4.1.99999.1.1 NAME 'userAccountControl' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.99999.1.2 NAME 'department' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.99999.2.1 NAME 'adLikeUser' AUXILIARY MAY ( userAccountControl $ department ) )
`

function slapdConf(dir: string): string {
  return `
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include ${dir}/ad.schema
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
modulepath /usr/lib/ldap
moduleload back_mdb
TLSCACertificateFile ${dir}/ca.pem
TLSCertificateFile ${dir}/server.pem
TLSCertificateKeyFile ${dir}/server.key

database mdb
suffix "${SUFFIX}"
rootdn "cn=admin,${SUFFIX}"
rootpw admin-secret
directory ${dir}/db
maxsize 4294967296
# As Active Directory's MaxPageSize: a search beyond 500 entries must be paged.
limits * size.soft=500 size.hard=500 size.prtotal=unlimited
index objectClass eq
index mail eq

access to attrs=userPassword by anonymous auth by * none
access to dn.subtree="ou=groups,${SUFFIX}" attrs=member by dn.exact="${SERVICE_DN}" write by users read
access to * by dn.exact="${SERVICE_DN}" read by users read by * none
`
}

export function baseLdif(): string {
  return [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Exemple SA`,
    `dn: ou=people,${SUFFIX}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${SUFFIX}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ou=services,${SUFFIX}\nobjectClass: organizationalUnit\nou: services`,
    `dn: ${SERVICE_DN}\nobjectClass: person\nobjectClass: simpleSecurityObject\ncn: recertif\nsn: Service\nuserPassword: service-secret`,
  ].join('\n\n') + '\n\n'
}

export interface PersonEntry {
  uid: string
  givenName: string
  sn: string
  mail: string
  title?: string
  department?: string
  managerUid?: string
  disabled?: boolean
}

export const personDn = (uid: string) => `uid=${uid},ou=people,${SUFFIX}`
export const groupDn = (cn: string) => `cn=${cn},ou=groups,${SUFFIX}`

export function personLdif(p: PersonEntry): string {
  const lines = [
    `dn: ${personDn(p.uid)}`, 'objectClass: inetOrgPerson', 'objectClass: adLikeUser', `uid: ${p.uid}`, `cn: ${p.givenName} ${p.sn}`,
    `givenName: ${p.givenName}`, `sn: ${p.sn}`, `mail: ${p.mail}`,
    // 512: a normal account; 514 adds ACCOUNTDISABLE.
    `userAccountControl: ${p.disabled ? 514 : 512}`,
  ]
  if (p.title) lines.push(`title: ${p.title}`)
  if (p.department) lines.push(`department: ${p.department}`)
  if (p.managerUid) lines.push(`manager: ${personDn(p.managerUid)}`)
  return lines.join('\n') + '\n\n'
}

// groupOfNames needs a member: each group keeps one that is no person, as groups often hold nested groups.
export function groupLdif(cn: string, memberUids: string[]): string {
  const lines = [`dn: ${groupDn(cn)}`, 'objectClass: groupOfNames', `cn: ${cn}`, `member: cn=placeholder,ou=groups,${SUFFIX}`]
  for (const uid of memberUids) lines.push(`member: ${personDn(uid)}`)
  return lines.join('\n') + '\n\n'
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function makeCertificates(dir: string): Promise<void> {
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir })
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Recertif test CA')
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1')
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n')
  await openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext')
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

async function waitUntilListening(child: ChildProcess, ports: number[], log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`slapd stopped: ${log()}`)
    if ((await Promise.all(ports.map(listening))).every(Boolean)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`slapd did not listen on ${ports.join(', ')}: ${log()}`)
}

/** Starts slapd with `ldif` (baseLdif() first) loaded; a port taken meanwhile is retried on new ones. */
export async function startSlapd(ldif: string): Promise<Slapd> {
  if (!existsSync(SLAPD)) throw new Error('slapd is not installed: run the tests through .ci/with-slapd (apt-get install slapd ldap-utils).')
  const dir = await mkdtemp(join(tmpdir(), 'recertif-slapd-'))
  await mkdir(join(dir, 'db'))
  await writeFile(join(dir, 'ad.schema'), AD_SCHEMA)
  await writeFile(join(dir, 'slapd.conf'), slapdConf(dir))
  await writeFile(join(dir, 'data.ldif'), ldif)
  await makeCertificates(dir)
  await run('/usr/sbin/slapadd', ['-f', join(dir, 'slapd.conf'), '-l', join(dir, 'data.ldif'), '-q'], { maxBuffer: 1 << 26 })

  for (let attempt = 0; attempt < 5; attempt++) {
    const [ldapPort, ldapsPort] = [await freePort(), await freePort()]
    let output = ''
    const child = spawn(SLAPD, ['-d', '0', '-f', join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${ldapPort}/ ldaps://127.0.0.1:${ldapsPort}/`], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    try {
      await waitUntilListening(child, [ldapPort, ldapsPort], () => output)
    } catch (error) {
      child.kill('SIGKILL')
      if (/in use/i.test(output)) continue
      await rm(dir, { recursive: true, force: true })
      throw error
    }
    const ldapUrl = `ldap://127.0.0.1:${ldapPort}`
    return {
      ldapUrl,
      ldapsUrl: `ldaps://127.0.0.1:${ldapsPort}`,
      caFile: join(dir, 'ca.pem'),
      suffix: SUFFIX,
      adminDn: `cn=admin,${SUFFIX}`,
      adminPassword: 'admin-secret',
      serviceDn: SERVICE_DN,
      servicePassword: 'service-secret',
      modify: async (changes) => {
        const file = join(dir, `change-${Date.now()}-${Math.random().toString(36).slice(2)}.ldif`)
        await writeFile(file, changes)
        await run('ldapmodify', ['-x', '-H', ldapUrl, '-D', `cn=admin,${SUFFIX}`, '-w', 'admin-secret', '-f', file])
      },
      stop: async () => {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
        await rm(dir, { recursive: true, force: true })
      },
    }
  }
  await rm(dir, { recursive: true, force: true })
  throw new Error('slapd could not bind free ports after 5 attempts')
}
