import {
  applicationDomains,
  applicationProducts,
  demoApplications,
  departments,
  firstNames,
  lastNames,
  ownerDepartments,
  ownerPositions,
  userPositions,
} from './catalog'
import { datasetEmail, rightsPerTeamMember, type DatasetCounts, type PersonRole } from './options'
import { pick, seededRandom, stableUuid } from './random'

export interface Person {
  n: number
  id: string
  email: string
  first_name: string
  last_name: string
  role: PersonRole
  position: string
  department: string
  manager_n: number | null
  /** 0 for the head of the organisation, then one more per level of management. */
  level: number
  /** A report of manager@example.com, whose rights are all under review. */
  in_demo_team: boolean
  rights_count: number
  /** The global number of this person's first right. */
  rights_offset: number
  /** The application of this person's first right; the next ones follow in application order. */
  first_application: number
}

export interface Application {
  n: number
  id: string
  name: string
  description: string
  ra_n: number
  bpo_metier_n: number
  bpo_groupe_n: number
  rssi_n: number | null
}

/** The seven demo accounts of supabase/seed.sql: same ids, e-mails, names and roles. */
export const demoAccounts = {
  user: { id: '00000000-0000-4000-a000-000000000001', email: 'user@example.com', first: 'Julie', last: 'Martin', position: 'Comptable', department: 'Finance' },
  manager: { id: '00000000-0000-4000-a000-000000000002', email: 'manager@example.com', first: 'Marc', last: 'Dubois', position: 'Responsable comptabilité', department: 'Finance' },
  bpo_metier: { id: '00000000-0000-4000-a000-000000000003', email: 'bpo@example.com', first: 'Sophie', last: 'Bernard', position: ownerPositions.bpo_metier, department: ownerDepartments.bpo_metier },
  bpo_groupe: { id: '00000000-0000-4000-a000-000000000004', email: 'bpo.groupe@example.com', first: 'Laurent', last: 'Petit', position: ownerPositions.bpo_groupe, department: ownerDepartments.bpo_groupe },
  ra: { id: '00000000-0000-4000-a000-000000000005', email: 'ra@example.com', first: 'Nadia', last: 'Moreau', position: ownerPositions.ra, department: ownerDepartments.ra },
  admin: { id: '00000000-0000-4000-a000-000000000006', email: 'admin@example.com', first: 'Alain', last: 'Leroy', position: ownerPositions.admin, department: ownerDepartments.admin },
  rssi: { id: '00000000-0000-4000-a000-000000000007', email: 'rssi@example.com', first: 'Claire', last: 'Fournier', position: 'RSSI', department: ownerDepartments.rssi },
} as const satisfies Record<PersonRole, unknown>

/** The share of the managers at each level below the head (the rest are at the last level): depth 3 to 5. */
const levelShares = [0.008, 0.06, 0.4]

/**
 * The organisation: managers first (the head, then level by level), then the review owners (BPO Métier, BPO Groupe,
 * RA, admin, RSSI: people without reports, since a manager's stage comes from their role), then everyone else. Every
 * manager has at least one report; manager@example.com leads a team of counts.demoTeam, user@example.com among them.
 */
export function buildPeople(seed: number, counts: DatasetCounts): Person[] {
  const random = seededRandom(seed)
  const people: Person[] = []
  const add = (role: PersonRole, k: number, level: number) => {
    const n = people.length
    const first = pick(random, firstNames)
    const last = pick(random, lastNames)
    people.push({
      n, id: stableUuid(seed, 'person', n), email: datasetEmail(role, k), first_name: first, last_name: last, role,
      position: '', department: '', manager_n: null, level, in_demo_team: false, rights_count: 0, rights_offset: 0,
      first_application: Math.floor(random() * counts.applications),
    })
    return people[n] as Person
  }
  const demo = (person: Person, account: (typeof demoAccounts)[PersonRole]) => {
    Object.assign(person, { id: account.id, email: account.email, first_name: account.first, last_name: account.last })
  }

  // Management levels.
  const levels: Person[][] = [[add('manager', 1, 0)]]
  let managerNumber = 1
  const levelSizes = levelShares.map((share) => Math.max(1, Math.round(counts.managers * share)))
  levelSizes.push(Math.max(1, counts.managers - 1 - levelSizes.reduce((a, b) => a + b, 0)))
  levelSizes.forEach((size, index) => {
    const level: Person[] = []
    for (let i = 0; i < size; i++) level.push(add('manager', ++managerNumber, index + 1))
    levels.push(level)
  })
  const chooseFrom = (pool: Person[], i: number) => (i < pool.length ? pool[i] : pick(random, pool)) as Person
  // manager@example.com leads a team of counts.demoTeam people and no one else.
  const demoManager = (levels[3] as Person[])[0] as Person
  demo(demoManager, demoAccounts.manager)
  for (let level = 1; level < levels.length; level++) {
    const parents = (levels[level - 1] as Person[]).filter((m) => m !== demoManager)
    ;(levels[level] as Person[]).forEach((manager, i) => {
      manager.manager_n = chooseFrom(parents, i).n
    })
  }

  // Review owners, one demo account first in each role.
  const owners = {} as Record<Exclude<PersonRole, 'user' | 'manager'>, Person[]>
  for (const role of ['bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi'] as const) {
    const demoOwner = add(role, 0, 0)
    demo(demoOwner, demoAccounts[role])
    owners[role] = [demoOwner]
    const generated = { bpo_metier: counts.bpoMetier, bpo_groupe: counts.bpoGroupe, ra: counts.ra, admin: counts.admin, rssi: counts.rssi }[role]
    for (let k = 1; k <= generated; k++) owners[role].push(add(role, k, 0))
  }

  // Everyone else, manager@example.com's team first.
  const firstUser = people.length
  for (let k = 1; people.length < counts.people; k++) add('user', k, 0)
  demo(people[firstUser] as Person, demoAccounts.user)

  const leafManagers = levels.slice(2).flat().filter((m) => m !== demoManager)
  people.slice(firstUser + counts.demoTeam).concat(Object.values(owners).flat()).forEach((person, i) => {
    person.manager_n = chooseFrom(leafManagers, i).n
  })
  for (const person of people.slice(firstUser, firstUser + counts.demoTeam)) {
    person.manager_n = demoManager.n
    person.in_demo_team = true
  }

  // Departments follow the tree; positions the role and level.
  for (const person of people) {
    const manager = person.manager_n === null ? null : (people[person.manager_n] as Person)
    if (person.role === 'manager') {
      person.level = manager ? manager.level + 1 : 0
      person.department = person.level === 0 ? 'Direction générale' : person.level === 1 ? (departments[person.n % departments.length] as string) : (manager as Person).department
      person.position = managerPosition(person.level, person.department)
    } else if (person.role === 'user') {
      person.level = (manager as Person).level + 1
      person.department = (manager as Person).department
      person.position = pick(random, userPositions)
    } else {
      person.level = (manager as Person).level + 1
      person.department = ownerDepartments[person.role]
      person.position = ownerPositions[person.role]
    }
  }
  for (const role of Object.keys(demoAccounts) as PersonRole[]) {
    const account = demoAccounts[role]
    const person = people.find((p) => p.id === account.id) as Person
    Object.assign(person, { position: account.position, department: account.department })
  }
  for (const person of people.filter((p) => p.in_demo_team)) person.department = demoAccounts.manager.department

  assignRightCounts(random, people, counts)
  return people
}

function managerPosition(level: number, department: string): string {
  if (level === 0) return 'Directeur général'
  if (level === 1) return `Directeur·rice ${department}`
  if (level === 2) return `Responsable de service — ${department}`
  return `Chef·fe d'équipe — ${department}`
}

/** Exactly counts.rights rights: rightsPerTeamMember for each of the demo team, the rest spread unevenly over everyone. */
function assignRightCounts(random: () => number, people: Person[], counts: DatasetCounts): void {
  const team = people.filter((p) => p.in_demo_team)
  const others = people.filter((p) => !p.in_demo_team)
  for (const person of team) person.rights_count = rightsPerTeamMember
  const remaining = Math.max(0, counts.rights - team.length * rightsPerTeamMember)
  const weights = others.map(() => 0.3 + 1.4 * random())
  const total = weights.reduce((a, b) => a + b, 0)
  let cumulative = 0
  let given = 0
  others.forEach((person, i) => {
    cumulative += weights[i] as number
    const upTo = i === others.length - 1 ? remaining : Math.floor((remaining * cumulative) / total)
    person.rights_count = upTo - given
    given = upTo
  })
  let offset = 0
  for (const person of people) {
    person.rights_offset = offset
    offset += person.rights_count
  }
}

/** The seed's five applications (owned by the demo RA, BPO Métier, BPO Groupe and RSSI), then generated ones. */
export function buildApplications(seed: number, counts: DatasetCounts, people: Person[]): Application[] {
  const ownersOf = (role: PersonRole) => people.filter((p) => p.role === role)
  const [ra, bpoMetier, bpoGroupe, rssi] = [ownersOf('ra'), ownersOf('bpo_metier'), ownersOf('bpo_groupe'), ownersOf('rssi')]
  const names = new Set<string>()
  const applications: Application[] = []
  let generated = 0
  for (let n = 0; n < counts.applications; n++) {
    const isDemo = n < demoApplications.length
    let name: string
    let description: string
    if (isDemo) {
      ;({ name, description } = demoApplications[n] as (typeof demoApplications)[number])
    } else {
      // Product × domain, skipping the names the seed's applications already have.
      do {
        const product = applicationProducts[generated % applicationProducts.length] as string
        const domain = applicationDomains[Math.floor(generated / applicationProducts.length) % applicationDomains.length] as string
        const round = Math.floor(generated / (applicationProducts.length * applicationDomains.length))
        name = round === 0 ? `${product} ${domain}` : `${product} ${domain} ${round + 1}`
        description = `${product} pour le périmètre ${domain}`
        generated++
      } while (names.has(name.toLowerCase()))
    }
    names.add(name.toLowerCase())
    // The demo owners hold the seed's applications; the generated ones share the rest.
    const owner = (pool: Person[]) => (isDemo ? (pool[0] as Person) : (pool[1 + ((n - demoApplications.length) % (pool.length - 1))] ?? pool[0]) as Person).n
    applications.push({
      n, id: stableUuid(seed, 'application', n), name, description,
      ra_n: owner(ra), bpo_metier_n: owner(bpoMetier), bpo_groupe_n: owner(bpoGroupe),
      rssi_n: n % 4 === 3 ? null : owner(rssi),
    })
  }
  return applications
}
