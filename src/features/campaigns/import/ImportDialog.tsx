import { useRef, useState } from 'react'
import { CheckCircle2, Download, Upload } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { FileInput } from '@/components/ui/FileInput'
import { SelectField } from '@/components/ui/SelectField'
import { Spinner } from '@/components/ui/Spinner'
import { LineProblemsList } from '@/components/ui/LineProblemsList'
import { downloadCsv } from '@/lib/csv'
import { campaignStatusLabel } from '@/domain/labels'
import { countText } from '@/domain/plural'
import { useCampaigns, useImportReference, useImportUserRights } from '../api'
import type { ImportRecord } from './csv-import'
import { IMPORT_COLUMNS, IMPORT_LIMITS, TEMPLATE_FILE_NAME, importTemplate } from './template'

type Parser = typeof import('./csv-import')

interface LoadedFile {
  parser: Parser
  name: string
  records: ImportRecord[]
}

const UNREADABLE = "Le fichier n'a pas pu être lu."
const numberFr = new Intl.NumberFormat('fr-FR')

/**
 * Import of rights from a CSV file into a campaign or into none (ARCHITECTURE §3): the file is read and checked in
 * the browser (papaparse loaded only then), every bad line is listed, and the import is one all-or-nothing call.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const campaigns = useCampaigns()
  const reference = useImportReference()
  const importer = useImportUserRights()
  const [campaignId, setCampaignId] = useState('')
  const [loaded, setLoaded] = useState<LoadedFile | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const [reading, setReading] = useState(false)
  const [inputKey, setInputKey] = useState(0)
  const latestRead = useRef(0)

  // A completed or archived campaign takes no more rights (import_user_rights refuses it).
  const targets = (campaigns.data ?? []).filter((campaign) => campaign.status === 'draft' || campaign.status === 'active')
  const target = targets.find((campaign) => campaign.id === campaignId) ?? null

  // Recomputed on each render: a few milliseconds even at the line limit, and always in step with the chosen campaign.
  const analysis =
    loaded && reference.data
      ? loaded.parser.validateImport(loaded.records, reference.data, target && { applicationId: target.applicationId, accountType: target.accountType })
      : null

  const chooseFile = async (file: File | undefined) => {
    const read = ++latestRead.current
    importer.reset()
    setLoaded(null)
    setFileError(null)
    if (!file) return
    setReading(true)
    let parser: Parser | null = null
    try {
      parser = await import('./csv-import')
      parser.checkImportFileSize(file.size)
      const records = parser.parseImportCsv(parser.decodeImportFile(new Uint8Array(await file.arrayBuffer())))
      if (read === latestRead.current) setLoaded({ parser, name: file.name, records })
    } catch (caught) {
      if (read !== latestRead.current) return
      setFileError(parser && caught instanceof parser.ImportFileError ? caught.message : UNREADABLE)
    } finally {
      if (read === latestRead.current) setReading(false)
    }
  }

  const submit = () => {
    if (!analysis || analysis.problems.length > 0 || analysis.rows.length === 0) return
    importer.mutate(
      { rows: analysis.rows, campaignId: campaignId || null },
      {
        onSuccess: (report) => {
          if (!report.success) return
          setLoaded(null)
          setInputKey((key) => key + 1)
        },
      },
    )
  }

  const report = importer.data
  const canImport = analysis !== null && analysis.problems.length === 0 && analysis.rows.length > 0 && !importer.isPending

  return (
    <Dialog
      open
      onClose={onClose}
      title="Import CSV des droits"
      description="Tout ou rien : si une seule ligne est refusée, aucun droit n'est importé."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Fermer
          </Button>
          <Button leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} disabled={!canImport} loading={importer.isPending} onClick={submit}>
            {analysis && analysis.rows.length > 0 && analysis.problems.length === 0
              ? `Importer ${countText(analysis.rows.length, 'droit', 'droits')}`
              : 'Importer'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <SelectField
          label="Campagne"
          value={campaignId}
          disabled={importer.isPending}
          onChange={(event) => {
            importer.reset()
            setCampaignId(event.target.value)
          }}
        >
          <option value="">Aucune campagne (droits hors campagne)</option>
          {targets.map((campaign) => (
            <option key={campaign.id} value={campaign.id}>
              {`${campaign.name} (${campaignStatusLabel(campaign.status)})`}
            </option>
          ))}
        </SelectField>

        <FileInput
          key={inputKey}
          label="Fichier CSV"
          accept=".csv,text/csv"
          disabled={importer.isPending}
          onFile={(file) => void chooseFile(file)}
        />

        <div className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          <p>
            {`Colonnes : ${IMPORT_COLUMNS.map((column) => (column.required ? `${column.header} (obligatoire)` : column.header)).join(', ')}. `}
            {'Séparateur « ; » ou « , », encodage UTF-8. Dates au format JJ/MM/AAAA ou AAAA-MM-JJ. '}
            {`${numberFr.format(IMPORT_LIMITS.maxRows)} lignes au plus.`}
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2"
            leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
            onClick={() => downloadCsv(TEMPLATE_FILE_NAME, importTemplate())}
          >
            Télécharger le modèle
          </Button>
        </div>

        {reading && <Spinner label="Lecture du fichier…" />}
        {fileError && <ErrorBox title="Fichier refusé" message={fileError} />}
        {reference.error && <ErrorBox message={reference.error.message} />}
        {loaded && reference.isPending && <Spinner label="Chargement de l'annuaire…" />}

        {loaded && analysis && (
          <p role="status" className="text-sm text-gray-700">
            {`${loaded.name} : ${countText(analysis.rows.length, 'ligne valide', 'lignes valides')}, ${countText(analysis.problems.length, 'ligne en erreur', 'lignes en erreur')}.`}
          </p>
        )}
        {analysis && analysis.problems.length > 0 && (
          <LineProblemsList title="Lignes en erreur (corrigez le fichier puis choisissez-le à nouveau)" lines={analysis.problems} />
        )}

        {importer.error && <ErrorBox title="Import refusé" message={importer.error.message} />}
        {report && !report.success && (
          <div role="alert" className="space-y-2">
            <p className="text-sm font-medium text-red-800">Le serveur a refusé l'import : aucun droit n'a été importé.</p>
            <LineProblemsList title="Lignes refusées par le serveur" lines={report.errors} />
          </div>
        )}
        {report?.success && (
          <p role="status" className="flex items-center gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
            <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-600" />
            {`${countText(report.imported, 'droit importé', 'droits importés')}${target ? ` dans la campagne « ${target.name} »` : ' hors campagne'}.`}
          </p>
        )}
      </div>
    </Dialog>
  )
}
