import { readFile } from 'node:fs/promises'
import { z } from 'zod'

/** The connector's configuration file (JSON). Secrets are never in it: it names the environment variables that hold them. */
const groupSchema = z.object({
  dn: z.string().min(1),
  role: z.string().trim().min(1).max(200),
  account_type: z.string().optional(),
})

export const configSchema = z.object({
  ldap: z.object({
    url: z.string().regex(/^ldaps?:\/\/[^/]+\/?$/, 'ldap.url : ldap://hôte:port ou ldaps://hôte:port'),
    startTls: z.boolean().default(false),
    caFile: z.string().optional(),
    bindDn: z.string().min(1),
    bindPasswordEnv: z.string().min(1).default('LDAP_BIND_PASSWORD'),
    timeoutMs: z.number().int().positive().default(30_000),
    pageSize: z.number().int().min(1).max(5000).default(500),
  }),
  people: z.object({
    baseDn: z.string().min(1),
    filter: z.string().default('(objectClass=person)'),
    attributes: z
      .object({
        email: z.string().default('mail'),
        firstName: z.string().default('givenName'),
        lastName: z.string().default('sn'),
        department: z.string().default('department'),
        title: z.string().default('title'),
        manager: z.string().default('manager'),
      })
      .default({ email: 'mail', firstName: 'givenName', lastName: 'sn', department: 'department', title: 'title', manager: 'manager' }),
    disabled: z
      .union([
        z.object({ userAccountControl: z.literal(true) }),
        z.object({ attribute: z.string().min(1), values: z.array(z.string()).min(1) }),
      ])
      .optional(),
  }),
  groups: z
    .object({ memberAttribute: z.string().default('member') })
    .default({ memberAttribute: 'member' }),
  applications: z.array(z.object({ name: z.string().trim().min(1), groups: z.array(groupSchema).min(1) })).default([]),
  recertif: z.object({
    url: z.string().url(),
    secretKeyEnv: z.string().min(1).default('RECERTIF_SECRET_KEY'),
    account: z.string().email(),
  }),
})

export type SyncConfig = z.infer<typeof configSchema>

export const HELP = `Connecteur d'annuaire LDAP / Active Directory de Recertif

Usage : npm run sync -- --config sync.json [--apply]

  --config FICHIER   la configuration (JSON, ci-dessous)
  --apply            retire des groupes les membres dont le RA a demandé la suppression au connecteur
                     (sans --apply : affiche seulement ce qui serait retiré)
  --help             cette aide

Chaque exécution lit les personnes et les groupes, puis envoie à Recertif, en une seule transaction (tout ou rien),
l'annuaire complet (les absents sont désactivés) et, pour chaque application configurée, la liste complète de ses
droits : les suppressions demandées y sont constatées (droit absent) ou non constatées (encore présent après le
délai de l'application). Relancer est sans danger.

Configuration (JSON). Les clés « facultatif » peuvent manquer ; startTls, bindPasswordEnv, timeoutMs, pageSize,
filter, attributes, groups et secretKeyEnv aussi : elles valent alors ce qui est montré ici.
{
  "ldap": {
    "url": "ldaps://ad.exemple.fr:636",      ldap:// ou ldaps://
    "startTls": false,                        true : StartTLS sur ldap://
    "caFile": "/etc/ssl/certs/ca-org.pem",    facultatif : l'autorité de certification de l'organisation (PEM)
    "bindDn": "CN=svc-recertif,OU=Services,DC=exemple,DC=fr",   le compte de service
    "bindPasswordEnv": "LDAP_BIND_PASSWORD",  la variable d'environnement qui contient son mot de passe
    "timeoutMs": 30000,                       délai de connexion et de réponse (millisecondes)
    "pageSize": 500                           entrées par page des recherches paginées (1 à 5000)
  },
  "people": {
    "baseDn": "OU=Personnes,DC=exemple,DC=fr",   où sont les personnes
    "filter": "(objectClass=person)",         par exemple (&(objectClass=user)(mail=*)) pour Active Directory
    "attributes": { "email": "mail", "firstName": "givenName", "lastName": "sn",
                    "department": "department", "title": "title", "manager": "manager" },
                                              les attributs lus ; manager contient le DN du manager
    "disabled": { "userAccountControl": true }         facultatif : Active Directory (bit ACCOUNTDISABLE)
             ou { "attribute": "employeeType", "values": ["inactif"] }   ou un attribut et ses valeurs
  },
  "groups": { "memberAttribute": "member" },  l'attribut des membres d'un groupe (DN des personnes)
  "applications": [
    { "name": "SAP Finance",                  le nom de l'application dans Recertif
      "groups": [ { "dn": "CN=SAP-Admin,OU=Groupes,DC=exemple,DC=fr",   un groupe donne à ses membres
                    "role": "Administrateur",                           ce rôle dans l'application
                    "account_type": "privileged" } ] }   facultatif : standard (par défaut), privileged,
  ],                                                     technical, shared, emergency ou external
  "recertif": {
    "url": "https://<projet>.supabase.co",
    "secretKeyEnv": "RECERTIF_SECRET_KEY",    la variable d'environnement de la clé secrète du projet
    "account": "rssi@exemple.fr"              l'administrateur ou le RSSI de Recertif au nom duquel le connecteur importe
  }
}

Secrets : jamais dans le fichier ; ldap.bindPasswordEnv et recertif.secretKeyEnv nomment les variables qui les portent.
Voir docs/ldap-connector.md (déploiement, droits du compte de service).`

/** Reads and checks the file; every problem is said in French with where it is. */
export async function loadConfig(path: string): Promise<SyncConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new Error(`Impossible de lire le fichier de configuration ${path}.`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`Le fichier de configuration ${path} n'est pas un JSON valide : ${(error as Error).message}`, { cause: error })
  }
  return parseConfig(json, path)
}

export function parseConfig(json: unknown, origin = 'la configuration'): SyncConfig {
  const parsed = configSchema.safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(racine)'} : ${issue.message}`)
    throw new Error(`${origin} est invalide :\n${problems.join('\n')}`)
  }
  return parsed.data
}

/** A secret named by the configuration, from the environment. */
export function secretFrom(env: NodeJS.ProcessEnv, name: string, what: string): string {
  const value = env[name]
  if (!value) throw new Error(`${what} : la variable d'environnement ${name} n'est pas définie.`)
  return value
}
