import { useId, useRef, useState } from 'react'
import { CheckCircle2, Download, ListChecks, Upload } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { FileInput } from '@/components/ui/FileInput'
import { SelectField } from '@/components/ui/SelectField'
import { Spinner } from '@/components/ui/Spinner'
import { downloadCsv } from '@/lib/csv'
import type { LineProblems, ParsedSyncFile } from '../parse'
import { useApplicationNames, useApplySnapshot, useSnapshotPreview } from './api'
import { RIGHTS_SNAPSHOT_COLUMNS, RIGHTS_SNAPSHOT_TEMPLATE, rightsSnapshotTemplate, snapshotSentence } from './format'

const UNREADABLE = "Le fichier n'a pas pu être lu."

/** « Importer la liste des droits » on the Applications page: one application's complete list, which settles its removals. */
export function RightsSnapshotButton() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button variant="outline" leftIcon={<ListChecks aria-hidden="true" className="h-4 w-4" />} onClick={() => setOpen(true)}>
        Importer la liste des droits
      </Button>
      {open && <RightsSnapshotDialog onClose={() => setOpen(false)} />}
    </>
  )
}

function ProblemList({ lines }: { lines: readonly LineProblems[] }) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      <h3 id={id} className="font-medium">
        Lignes en erreur (corrigez le fichier puis choisissez-le à nouveau)
      </h3>
      <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto" aria-labelledby={id}>
        {lines.map((report) => (
          <li key={report.line}>
            <span className="font-medium">{`Ligne ${report.line}`}</span>
            {` : ${report.errors.join(' ; ')}`}
          </li>
        ))}
      </ul>
    </section>
  )
}

function RightsSnapshotDialog({ onClose }: { onClose: () => void }) {
  const names = useApplicationNames()
  const [application, setApplication] = useState('')
  const [parsed, setParsed] = useState<ParsedSyncFile | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const latestRead = useRef(0)
  const preview = useSnapshotPreview(application, parsed?.problems.length === 0 ? parsed.rows : null)
  const apply = useApplySnapshot()

  const chooseFile = async (file: File | undefined) => {
    const read = ++latestRead.current
    setParsed(null)
    setFileError(null)
    apply.reset()
    if (!file) return
    try {
      const parser = await import('../parse')
      try {
        const result = parser.parseSyncFile({ columns: RIGHTS_SNAPSHOT_COLUMNS }, parser.decodeSyncFile(new Uint8Array(await file.arrayBuffer())))
        if (read === latestRead.current) setParsed(result)
      } catch (caught) {
        if (read === latestRead.current) setFileError(caught instanceof parser.SyncFileError ? caught.message : UNREADABLE)
      }
    } catch {
      if (read === latestRead.current) setFileError(UNREADABLE)
    }
  }

  const problems = parsed?.problems.length ? parsed.problems : (preview.data?.errors ?? [])
  const ready = parsed !== null && application !== '' && preview.data?.success === true && !apply.data

  return (
    <Dialog
      open
      onClose={onClose}
      title="Import de la liste des droits"
      description="La liste complète des comptes et rôles d'une application. Tout ou rien : si une seule ligne est refusée, rien n'est importé."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Fermer
          </Button>
          <Button
            leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />}
            disabled={!ready}
            loading={apply.isPending}
            onClick={() => parsed && apply.mutate({ application, rows: parsed.rows })}
          >
            Importer
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <SelectField
          label="Application"
          value={application}
          disabled={apply.isPending}
          onChange={(event) => {
            apply.reset()
            setApplication(event.target.value)
          }}
        >
          <option value="">Choisissez l'application</option>
          {(names.data ?? []).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        {names.error && <ErrorBox message={names.error.message} />}
        <FileInput label="Fichier CSV" accept=".csv,text/csv" disabled={apply.isPending} onFile={(file) => void chooseFile(file)} />
        <div className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          <p>
            Colonnes : E-mail (obligatoire), Rôle (obligatoire), Type de compte. Les droits absents de la liste sont conservés pour la revue ;
            les suppressions demandées pour cette application sont constatées quand la liste ne les contient plus, et signalées au RSSI si elles y
            sont encore après le délai de l’application.
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2"
            leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
            onClick={() => downloadCsv(RIGHTS_SNAPSHOT_TEMPLATE, rightsSnapshotTemplate())}
          >
            Télécharger le modèle
          </Button>
        </div>
        {fileError && <ErrorBox title="Fichier refusé" message={fileError} />}
        {preview.isFetching && <Spinner label="Vérification du fichier…" />}
        {preview.error && <ErrorBox title="Fichier refusé" message={preview.error.message} />}
        {preview.data?.success && !apply.data && <p className="text-sm text-gray-700">{snapshotSentence(preview.data)}</p>}
        {problems.length > 0 && <ProblemList lines={problems} />}
        {apply.error && <ErrorBox title="Import refusé" message={apply.error.message} />}
        {apply.data && (
          <p role="status" className="flex items-center gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
            <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-600" />
            {snapshotSentence(apply.data)}
          </p>
        )}
      </div>
    </Dialog>
  )
}
