import { describe, expect, it } from 'vitest'
import { CSV_BOM, csvCell, toCsv, toCsvSections } from '@/lib/csv'

describe('csvCell', () => {
  it('leaves plain text and numbers as they are, and empties null', () => {
    expect(csvCell('Salesforce')).toBe('Salesforce')
    expect(csvCell(42)).toBe('42')
    expect(csvCell(null)).toBe('')
    expect(csvCell(undefined)).toBe('')
    expect(csvCell('Élodie Dupré')).toBe('Élodie Dupré')
  })

  it('quotes cells holding the separator, quotes or line breaks, doubling inner quotes', () => {
    expect(csvCell('a;b')).toBe('"a;b"')
    expect(csvCell('dit "bonjour"')).toBe('"dit ""bonjour"""')
    expect(csvCell('ligne 1\nligne 2')).toBe('"ligne 1\nligne 2"')
    expect(csvCell('a,b')).toBe('a,b')
  })

  it.each([
    ['=HYPERLINK("http://evil.example","clic")', `"'=HYPERLINK(""http://evil.example"",""clic"")"`],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@x', "'@x"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
  ])('defuses the formula-looking cell %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected)
  })

  it('defuses negative numbers given as numbers too', () => {
    expect(csvCell(-3)).toBe("'-3")
  })
})

describe('toCsv', () => {
  it('starts with a UTF-8 BOM, separates with ; and ends every line with CRLF', () => {
    const text = toCsv(['Application', 'Utilisateur'], [['SAP', 'Jean; Dupont'], ['CRM', '=cmd']])
    expect(text.startsWith(CSV_BOM)).toBe(true)
    expect(text.slice(1)).toBe('Application;Utilisateur\r\nSAP;"Jean; Dupont"\r\nCRM;\'=cmd\r\n')
  })

  it('writes the BOM as the bytes EF BB BF', () => {
    const bytes = new TextEncoder().encode(toCsv(['A'], []))
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  })

  it('writes several titled tables, one BOM only', () => {
    const text = toCsvSections([
      { title: 'Règles', header: ['Nom'], rows: [['R1']] },
      { title: 'Applications', header: ['Nom', 'Taux'], rows: [['SAP', 80]] },
    ])
    expect(text).toBe(`${CSV_BOM}Règles\r\nNom\r\nR1\r\n\r\nApplications\r\nNom;Taux\r\nSAP;80\r\n`)
    expect(text.split(CSV_BOM)).toHaveLength(2)
  })
})
