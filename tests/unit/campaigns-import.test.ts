import { detectSeparator } from '../../src/lib/csv-records'
import {
  IMPORT_MESSAGES,
  ImportFileError,
  checkImportFileSize,
  decodeImportFile,
  parseAccountType,
  parseImportCsv,
  parseImportDate,
  validateImport,
  type ImportReference,
  type ImportTarget,
} from '@/features/campaigns/import/csv-import'
import { IMPORT_LIMITS, importTemplate } from '@/features/campaigns/import/template'

const HEADER = "E-mail;Application;Rôle;Type de compte;Date d'attribution;Dernière utilisation;Justification"
const TODAY = new Date(2026, 10, 21, 12)
const REFERENCE: ImportReference = {
  emails: ['user@example.com', 'Emma.Girard@example.com'],
  applications: [
    { id: 'app-sap', name: 'SAP Finance' },
    { id: 'app-git', name: 'GitLab' },
  ],
}

function analyse(text: string, target: ImportTarget | null = null) {
  return validateImport(parseImportCsv(text), REFERENCE, target, TODAY)
}

const lines = (...rows: string[]) => [HEADER, ...rows].join('\r\n')
const fileError = (run: () => unknown) => {
  try {
    run()
  } catch (caught) {
    expect(caught).toBeInstanceOf(ImportFileError)
    return (caught as Error).message
  }
  throw new Error('no ImportFileError thrown')
}

describe('reading the file', () => {
  it('reads ; and , separated files alike, with or without BOM, and sends account type codes and ISO dates', () => {
    const semicolon = analyse('\uFEFF' + lines('user@example.com;SAP Finance;Comptable;À privilèges;15/03/2024;2026-10-01;Clôture'))
    const comma = analyse(
      [
        "E-mail,Application,Rôle,Type de compte,Date d'attribution,Dernière utilisation,Justification",
        'user@example.com,SAP Finance,Comptable,À privilèges,15/03/2024,2026-10-01,Clôture',
      ].join('\n'),
    )
    const expected = {
      line: 2,
      email: 'user@example.com',
      application: 'SAP Finance',
      role_name: 'Comptable',
      account_type: 'privileged',
      granted_at: '2024-03-15',
      last_used_at: '2026-10-01',
      justification: 'Clôture',
    }
    expect(semicolon).toEqual({ rows: [expected], problems: [] })
    expect(comma).toEqual({ rows: [expected], problems: [] })
    expect(detectSeparator('a;b;c\nx,y')).toBe(';')
    expect(detectSeparator('a,b,c\nx;y')).toBe(',')
  })

  it('decodes UTF-8 with or without BOM and refuses another encoding in French', () => {
    const utf8 = new TextEncoder().encode('Rôle;é')
    expect(decodeImportFile(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toBe('Rôle;é')
    expect(decodeImportFile(utf8)).toBe('Rôle;é')
    // « Rôle » as Windows-1252 writes it (Excel's default CSV).
    expect(fileError(() => decodeImportFile(new Uint8Array([0x52, 0xf4, 0x6c, 0x65])))).toBe(IMPORT_MESSAGES.notUtf8)
  })

  it('refuses an empty or oversized file, a file without lines and one over the line limit', () => {
    expect(fileError(() => checkImportFileSize(0))).toBe('Le fichier est vide.')
    expect(fileError(() => checkImportFileSize(IMPORT_LIMITS.maxBytes + 1))).toMatch(/^Le fichier pèse 5 Mo : 5 Mo au plus par import\./)
    expect(fileError(() => parseImportCsv(''))).toBe('Le fichier est vide.')
    expect(fileError(() => parseImportCsv('\uFEFF \r\n'))).toBe('Le fichier est vide.')
    expect(fileError(() => parseImportCsv(`${HEADER}\r\n;;;\r\n\r\n`))).toBe('Le fichier ne contient aucune ligne à importer.')
    const tooMany = [HEADER, ...Array.from({ length: IMPORT_LIMITS.maxRows + 1 }, (_, i) => `u${i}@example.com;GitLab;R`)].join('\n')
    expect(fileError(() => parseImportCsv(tooMany))).toMatch(/^Le fichier contient 10\s001 lignes de droits : 10\s000 au plus par import\./)
    expect(parseImportCsv(tooMany.split('\n').slice(0, -1).join('\n'))).toHaveLength(IMPORT_LIMITS.maxRows)
  })

  it('names the unknown, missing and doubled columns of a wrong header', () => {
    expect(fileError(() => parseImportCsv('Email;Appli;Rôle\nuser@example.com;GitLab;R'))).toBe(
      "Colonne inconnue : « Appli ». Colonne obligatoire absente : Application. Colonnes attendues : E-mail, Application, Rôle, Type de compte, Date d'attribution, Dernière utilisation, Justification (séparées par « ; » ou « , »).",
    )
    expect(fileError(() => parseImportCsv('E-mail;Mail;Application;Rôle\na;b;c;d'))).toMatch(/^Colonne en double : E-mail\./)
    expect(fileError(() => parseImportCsv('user@example.com;GitLab;Comptable\n'))).toMatch(/Colonnes inconnues.*Colonnes obligatoires absentes : E-mail, Application, Rôle\./)
  })

  it('reads headers whatever their case, accents or punctuation, and the optional columns may be left out', () => {
    const result = validateImport(parseImportCsv('EMAIL;application;ROLE / PROFIL\nuser@example.com;gitlab;Lecteur'), REFERENCE, null, TODAY)
    expect(result.problems).toEqual([])
    expect(result.rows).toEqual([
      { line: 2, email: 'user@example.com', application: 'GitLab', role_name: 'Lecteur', account_type: 'standard', granted_at: null, last_used_at: null, justification: null },
    ])
  })

  it('numbers lines as in the file, skipping blank lines but counting them', () => {
    const result = analyse(lines('user@example.com;GitLab;A', '', 'inconnu@example.org;GitLab;B', ';;;;;;'))
    expect(result.rows.map((row) => row.line)).toEqual([2])
    expect(result.problems).toEqual([{ line: 4, errors: ['utilisateur inconnu : inconnu@example.org'] }])
  })

  it('offers a template that it reads back without a problem: header, one example, ; and BOM', () => {
    const template = importTemplate()
    expect(template.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true)
    expect(template.trimEnd().split('\r\n')).toHaveLength(2)
    const records = parseImportCsv(template)
    expect(validateImport(records, { emails: ['prenom.nom@example.com'], applications: [{ id: 'a', name: 'SAP Finance' }] }, null, TODAY)).toMatchObject({
      problems: [],
      rows: [{ line: 2, account_type: 'standard', granted_at: '2024-03-15', last_used_at: '2026-10-01' }],
    })
  })
})

describe('checking the lines', () => {
  it('reports every bad line with its number and French reasons, and keeps only the good ones', () => {
    const result = analyse(
      lines(
        'user@example.com;SAP Finance;Comptable;;;;',
        'personne@example.org;SAP Finance;Comptable;;;;',
        'user@example.com;Oracle Paie;Comptable;;;;',
        'user@example.com;SAP Finance;;;;;',
        'user@example.com;SAP Finance;Auditeur;root;;;',
        'user@example.com;SAP Finance;Lecteur;;31/02/2024;hier;',
        'EMMA.GIRARD@example.com;gitlab;Dev;Technique;2099-01-01;22/11/2026;',
        'pas-un-email;GitLab;Dev;;;;',
        ';;Dev;;;;',
      ),
    )
    expect(result.rows.map((row) => row.line)).toEqual([2])
    expect(result.problems).toEqual([
      { line: 3, errors: ['utilisateur inconnu : personne@example.org'] },
      { line: 4, errors: ['application inconnue : Oracle Paie'] },
      { line: 5, errors: ['rôle manquant'] },
      { line: 6, errors: ['type de compte inconnu : root'] },
      { line: 7, errors: ["date d'attribution invalide : 31/02/2024", 'date de dernière utilisation invalide : hier'] },
      { line: 8, errors: ["date d'attribution dans le futur", 'date de dernière utilisation dans le futur'] },
      { line: 9, errors: ['e-mail invalide : pas-un-email'] },
      { line: 10, errors: ['e-mail manquant', 'application manquante'] },
    ])
  })

  it('finds e-mails and applications whatever their case', () => {
    const result = analyse(lines('emma.girard@EXAMPLE.com;sap finance;Comptable;;;;'))
    expect(result.problems).toEqual([])
    expect(result.rows[0]).toMatchObject({ email: 'emma.girard@EXAMPLE.com', application: 'SAP Finance' })
  })

  it('reports a duplicate of an earlier line, whatever its case', () => {
    const result = analyse(lines('user@example.com;GitLab;Dev;;;;', 'user@example.com;SAP Finance;Dev;;;;', 'USER@example.com;gitlab;DEV;;;;'))
    expect(result.problems).toEqual([{ line: 4, errors: ['doublon de la ligne 2'] }])
  })

  it.each([
    ['standard', 'standard'],
    ['Privileged', 'privileged'],
    ['À privilèges', 'privileged'],
    ['a privileges', 'privileged'],
    ['Technique', 'technical'],
    ['Partagé / Générique', 'shared'],
    ['generique', 'shared'],
    ['Urgence (Break Glass)', 'emergency'],
    ['break glass', 'emergency'],
    ['Externe', 'external'],
  ])('reads the account type %s as %s', (text, code) => {
    expect(parseAccountType(text)).toBe(code)
  })

  it.each(['root', 'admin', 'privileges', ''])('refuses the account type %j', (text) => {
    expect(parseAccountType(text)).toBeNull()
  })

  it.each([
    ['15/03/2024', '2024-03-15'],
    ['5/3/2024', '2024-03-05'],
    ['2024-02-29', '2024-02-29'],
  ])('reads the date %s', (text, iso) => {
    expect(parseImportDate(text)).toBe(iso)
  })

  it.each(['31/02/2024', '2023-02-29', '2024/03/15', '15-03-2024', '03/15/2024', '15 mars 2024', '01/01/0024', '2024-3-5'])('refuses the date %s', (text) => {
    expect(parseImportDate(text)).toBeNull()
  })

  it("takes 'Jamais' as a right never used", () => {
    expect(analyse(lines('user@example.com;GitLab;Dev;;;Jamais;')).rows[0]?.last_used_at).toBeNull()
  })

  it("reports the lines outside the campaign's application or account type", () => {
    const result = analyse(lines('user@example.com;SAP Finance;A;À privilèges;;;', 'user@example.com;GitLab;B;privileged;;;', 'user@example.com;SAP Finance;C;;;;'), {
      applicationId: 'app-sap',
      accountType: 'privileged',
    })
    expect(result.problems).toEqual([
      { line: 3, errors: ['application hors du périmètre de la campagne : GitLab'] },
      { line: 4, errors: ['type de compte hors du périmètre de la campagne : Standard'] },
    ])
    expect(analyse(lines('user@example.com;GitLab;B;Technique;;;'), { applicationId: null, accountType: null }).problems).toEqual([])
  })
})

describe('hostile cells', () => {
  it.each([
    ['=cmd|\' /C calc\'!A0', 'Rôle'],
    ['+33 1 23', 'Rôle'],
    ['-2+3', 'Rôle'],
    ['@SUM(A1:A2)', 'Rôle'],
    ['  =HYPERLINK("http://evil")', 'Rôle'],
  ])('refuses a formula %j, never keeping the cell', (cell, header) => {
    const records = parseImportCsv(lines(`user@example.com;GitLab;"${cell.replace(/"/g, '""')}";;;;`))
    expect(records[0]?.cells.role_name).toBeUndefined()
    const result = validateImport(records, REFERENCE, null, TODAY)
    expect(result.rows).toEqual([])
    // The cell is reported once, as a formula, not also as a missing role.
    expect(result.problems).toEqual([{ line: 2, errors: [IMPORT_MESSAGES.formula(header)] }])
  })

  it('refuses formulas in every column, the e-mail and the dates included', () => {
    const result = analyse(lines('=1+1;@GitLab;Dev;-standard;=NOW();+1;=A1'))
    expect(result.problems).toEqual([
      {
        line: 2,
        errors: ['E-mail', 'Application', 'Type de compte', "Date d'attribution", 'Dernière utilisation', 'Justification'].map((header) =>
          IMPORT_MESSAGES.formula(header),
        ),
      },
    ])
  })

  it('refuses control characters, line breaks and direction overrides inside a cell', () => {
    const result = analyse(lines('user@example.com;GitLab;"Dev\nOps";;;;', 'user@example.com;GitLab;Dev\u0007;;;;', 'user@example.com;GitLab;\u202Emoc.live;;;;', 'user@example.com;GitLab;"Tab\there";;;;'))
    expect(result.problems).toEqual([
      { line: 2, errors: ['caractères de contrôle interdits dans « Rôle »'] },
      { line: 4, errors: ['caractères de contrôle interdits dans « Rôle »'] },
      { line: 5, errors: ['caractères de contrôle interdits dans « Rôle »'] },
      { line: 6, errors: ['caractères de contrôle interdits dans « Rôle »'] },
    ])
  })

  it('refuses very long values and cuts them short in the messages', () => {
    const long = 'x'.repeat(5000)
    const result = analyse(lines(`user@example.com;GitLab;${'R'.repeat(201)};;;;${'J'.repeat(2001)}`, `${long}@example.com;GitLab;Dev;;;;`))
    expect(result.problems).toEqual([
      { line: 2, errors: ['« Rôle » trop long (200 caractères au plus)', '« Justification » trop long (2\u202f000 caractères au plus)'] },
      { line: 3, errors: ['« E-mail » trop long (254 caractères au plus)'] },
    ])
    const unknown = analyse(lines(`${'a'.repeat(200)}@example.com;GitLab;Dev;;;;`)).problems[0]?.errors[0] ?? ''
    expect(unknown.length).toBeLessThan(100)
  })

  it('refuses values beside the columns and unclosed quotes', () => {
    const result = analyse(lines('user@example.com;GitLab;Dev;;;;;en trop', 'user@example.com;GitLab;"Dev;;;;'))
    expect(result.problems[0]).toEqual({ line: 2, errors: ['valeur hors des colonnes prévues (colonne 8)'] })
    expect(result.problems[1]?.line).toBe(3)
    expect(result.problems[1]?.errors[0]).toBe('guillemets non refermés')
  })
})
