import { useId, useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { CheckCircle2, Download, Upload } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { FileInput } from '@/components/ui/FileInput'
import { Spinner } from '@/components/ui/Spinner'
import { LineProblemsList } from '@/components/ui/LineProblemsList'
import { downloadCsv } from '@/lib/csv'
import { countText } from '@/domain/plural'
import { previewImport, useApplyImport, type FunctionOutcome, type SyncReport } from './api'
import { SYNC_LIMITS, syncTemplate, type SyncFormat } from './formats'
import type { LineProblems, ParsedSyncFile } from './parse'

type Parser = typeof import('./parse')

interface LoadedFile {
  name: string
  /** Changes with each file read, so that a new file is checked again even under the same name. */
  version: number
  parsed: ParsedSyncFile
}

const UNREADABLE = "Le fichier n'a pas pu être lu."
const numberFr = new Intl.NumberFormat('fr-FR')

/** Every problem of each line, the browser's and the database's, line by line. */
function mergeProblems(...lists: readonly (readonly LineProblems[])[]): LineProblems[] {
  const byLine = new Map<number, string[]>()
  for (const list of lists) for (const { line, errors } of list) byLine.set(line, [...(byLine.get(line) ?? []), ...errors])
  return [...byLine].sort(([a], [b]) => a - b).map(([line, errors]) => ({ line, errors }))
}

function previewSentence(format: SyncFormat, report: SyncReport): string {
  const parts = [
    countText(report.created, 'création', 'créations'),
    countText(report.updated, 'mise à jour', 'mises à jour'),
    ...(report.moved !== undefined ? [countText(report.moved, 'changement de manager', 'changements de manager')] : []),
    ...(report.reactivated ? [countText(report.reactivated, 'réactivation', 'réactivations')] : []),
    countText(report.unchanged, 'ligne inchangée', 'lignes inchangées'),
  ]
  return `${format.kind === 'directory' ? 'Annuaire' : 'Applications'} : ${parts.join(', ')}.`
}

function outcomeSentence(format: SyncFormat, outcome: FunctionOutcome): string {
  const report = outcome.report
  const parts = [
    countText(report?.created ?? 0, format.kind === 'directory' ? 'personne créée' : 'application créée', format.kind === 'directory' ? 'personnes créées' : 'applications créées'),
    countText(report?.updated ?? 0, 'mise à jour', 'mises à jour'),
    ...(format.kind === 'directory'
      ? [countText(report?.leaving ?? 0, 'personne désactivée', 'personnes désactivées'), countText(outcome.invited.length, 'invitation programmée', 'invitations programmées')]
      : []),
  ]
  return `Import terminé : ${parts.join(', ')}.`
}

/**
 * Import of the directory or of the applications from a CSV file: the file is read in the browser (papaparse loaded
 * only then), the database checks it in a dry run whose report lists every bad line and, for the directory in
 * « Import complet » mode, how many people will leave; then one all-or-nothing call applies it.
 */
export function SyncImportDialog({ format, onClose }: { format: SyncFormat; onClose: () => void }) {
  const importer = useApplyImport(format.kind)
  const [loaded, setLoaded] = useState<LoadedFile | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const [reading, setReading] = useState(false)
  const [complete, setComplete] = useState(false)
  const [inputKey, setInputKey] = useState(0)
  const [invited, setInvited] = useState<{ done: number; total: number } | null>(null)
  const latestRead = useRef(0)
  const completeId = useId()

  const preview = useQuery({
    queryKey: ['directory-sync', 'preview', format.kind, loaded?.version ?? 0, complete],
    queryFn: () => previewImport(format.kind, loaded?.parsed.rows ?? [], complete),
    enabled: loaded !== null && loaded.parsed.rows.length > 0,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  })

  const chooseFile = async (file: File | undefined) => {
    const read = ++latestRead.current
    importer.reset()
    setLoaded(null)
    setFileError(null)
    if (!file) return
    setReading(true)
    let parser: Parser | null = null
    try {
      parser = await import('./parse')
      const parsed = parser.parseSyncFile(format, parser.decodeSyncFile(new Uint8Array(await file.arrayBuffer())))
      if (read === latestRead.current) setLoaded({ name: file.name, version: read, parsed })
    } catch (caught) {
      if (read !== latestRead.current) return
      setFileError(parser && caught instanceof parser.SyncFileError ? caught.message : UNREADABLE)
    } finally {
      if (read === latestRead.current) setReading(false)
    }
  }

  const problems = loaded ? mergeProblems(loaded.parsed.problems, preview.data?.errors ?? []) : []
  const ready = loaded !== null && problems.length === 0 && preview.data?.success === true && !importer.isPending
  const outcome = importer.data

  const submit = () => {
    if (!ready || !loaded) return
    const newcomers = preview.data?.created ?? 0
    setInvited(null)
    importer.mutate(
      { rows: loaded.parsed.rows, complete, onInvited: (done) => setInvited({ done, total: newcomers }) },
      {
        onSuccess: (result) => {
          if (!result.report?.success) return
          setLoaded(null)
          setInputKey((key) => key + 1)
        },
      },
    )
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={format.title}
      description="Tout ou rien : si une seule ligne est refusée, rien n'est importé."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Fermer
          </Button>
          <Button leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} disabled={!ready} loading={importer.isPending} onClick={submit}>
            {ready && loaded ? `Importer ${countText(loaded.parsed.total, 'ligne', 'lignes')}` : 'Importer'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <FileInput key={inputKey} label="Fichier CSV" accept=".csv,text/csv" disabled={importer.isPending} onFile={(file) => void chooseFile(file)} />

        <div className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          <p>
            {`Colonnes : ${format.columns.map((column) => (column.required ? `${column.header} (obligatoire)` : column.header)).join(', ')}. `}
            {`Séparateur « ; » ou « , », encodage UTF-8. ${numberFr.format(SYNC_LIMITS.maxRows)} lignes au plus.`}
            {format.kind === 'directory' && ' Les personnes sont reconnues par leur e-mail ; le manager est désigné par son e-mail.'}
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2"
            leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
            onClick={() => downloadCsv(format.templateFileName, syncTemplate(format))}
          >
            Télécharger le modèle
          </Button>
        </div>

        {format.kind === 'directory' && (
          <div className="flex items-start gap-2 text-sm">
            <input
              id={completeId}
              type="checkbox"
              checked={complete}
              disabled={importer.isPending}
              onChange={(event) => {
                importer.reset()
                setComplete(event.target.checked)
              }}
              className="mt-0.5 h-4 w-4 rounded border-gray-300"
            />
            <label htmlFor={completeId}>
              <span className="font-medium">Import complet</span>
              <span className="block text-gray-600">
                Le fichier est tout l'annuaire : les personnes absentes du fichier seront désactivées (jamais supprimées).
              </span>
            </label>
          </div>
        )}

        {reading && <Spinner label="Lecture du fichier…" />}
        {fileError && <ErrorBox title="Fichier refusé" message={fileError} />}
        {loaded && preview.isFetching && <Spinner label="Vérification du fichier…" />}
        {preview.error && <ErrorBox title="Fichier refusé" message={preview.error.message} />}

        {loaded && (
          <p role="status" className="text-sm text-gray-700">
            {`${loaded.name} : ${countText(loaded.parsed.total, 'ligne', 'lignes')}, ${countText(problems.length, 'ligne en erreur', 'lignes en erreur')}.`}
          </p>
        )}
        {loaded && preview.data && (
          <p className="text-sm text-gray-700">
            {previewSentence(format, preview.data)}
            {complete && preview.data.leaving !== undefined && (
              <strong className="block text-orange-800">
                {`Import complet : ${countText(preview.data.leaving, 'personne quittera', 'personnes quitteront')} l'annuaire (${preview.data.leaving > 1 ? 'désactivées' : 'désactivée'}).`}
              </strong>
            )}
          </p>
        )}
        {problems.length > 0 && <LineProblemsList title="Lignes en erreur (corrigez le fichier puis choisissez-le à nouveau)" lines={problems} />}

        {importer.isPending && invited && (
          <p role="status" className="text-sm text-gray-700">{`Invitations programmées : ${numberFr.format(invited.done)} / ${numberFr.format(invited.total)}`}</p>
        )}
        {importer.error && <ErrorBox title="Import refusé" message={importer.error.message} />}
        {outcome?.report && !outcome.report.success && (
          <div role="alert" className="space-y-2">
            <p className="text-sm font-medium text-red-800">Le serveur a refusé l'import : rien n'a été importé.</p>
            <LineProblemsList title="Lignes refusées par le serveur" lines={outcome.report.errors} />
          </div>
        )}
        {outcome?.report?.success && (
          <p role="status" className="flex items-center gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
            <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-600" />
            {outcomeSentence(format, outcome)}
          </p>
        )}
        {outcome && outcome.failures.length > 0 && (
          <ErrorBox
            title="Comptes de connexion non mis à jour"
            message={outcome.failures.map((failure) => `${failure.email} : ${failure.message}`).join(' ; ')}
          />
        )}
      </div>
    </Dialog>
  )
}
