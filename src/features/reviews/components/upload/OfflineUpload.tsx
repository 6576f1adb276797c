import { useState } from 'react'
import { CheckCircle2, FileUp } from 'lucide-react'
import { useCurrentUser } from '@/auth/auth-context'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { FileInput } from '@/components/ui/FileInput'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { countText } from '@/domain/plural'
import { STAGE_FILE_LABELS, type StageFile } from '@/domain/stage-files'
import type { OfflineFile, PreviewLine } from '../../offline-model'
import { useOfflineUpload } from './useOfflineUpload'

const DECISION_LABELS = { approved: 'Validé', refused: 'Refusé' } as const

function PreviewTable({ lines, applied }: { lines: readonly PreviewLine[]; applied: boolean }) {
  return (
    <div className="max-h-96 overflow-y-auto rounded-md border border-gray-200">
      <Table caption="Décisions lues dans le fichier">
        <TableHead>
          <tr>
            <TableHeaderCell>Ligne</TableHeaderCell>
            <TableHeaderCell>Droit</TableHeaderCell>
            <TableHeaderCell>Titulaire</TableHeaderCell>
            <TableHeaderCell>Application</TableHeaderCell>
            <TableHeaderCell>Décision lue</TableHeaderCell>
            <TableHeaderCell>Vérification</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.line}>
              <TableCell>{line.line}</TableCell>
              <TableCell>{line.role || '—'}</TableCell>
              <TableCell>{line.holder || '—'}</TableCell>
              <TableCell>{line.application || '—'}</TableCell>
              <TableCell>{line.decision ? DECISION_LABELS[line.decision] : `« ${line.decisionText} »`}</TableCell>
              <TableCell>{line.reason === null ? <Badge tone="green">{applied ? 'Appliquée' : 'Applicable'}</Badge> : <span className="text-red-800">{line.reason}</span>}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}

/** The stage at which the caller's role decides, when it has a file of its own. */
function fileStageOf(role: string): StageFile | null {
  return Object.hasOwn(STAGE_FILE_LABELS, role) ? (role as StageFile) : null
}

function Summary({ file, applicable, refused }: { file: OfflineFile; applicable: number; refused: number }) {
  const myStage = fileStageOf(useCurrentUser().role)
  return (
    <div className="space-y-2 text-sm text-gray-800">
      {myStage && myStage !== file.stage && (
        <ErrorBox
          title="Ce fichier n'est pas celui de votre étape"
          message={`C'est un fichier ${STAGE_FILE_LABELS[file.stage]} ; vous décidez à l'étape ${STAGE_FILE_LABELS[myStage]}. Seules les lignes que vous pouvez décider pour le compte d'un autre réviseur (délégation) sont acceptées.`}
        />
      )}
      <p>
        {`Fichier ${STAGE_FILE_LABELS[file.stage]} : ${countText(file.lines.length, 'décision lue', 'décisions lues')}, `}
        {`${countText(applicable, 'applicable', 'applicables')}, ${countText(refused, 'refusée', 'refusées')}`}
        {file.undecided > 0 && `, ${countText(file.undecided, 'droit laissé sans décision (ignoré)', 'droits laissés sans décision (ignorés)')}`}
        .
      </p>
      {refused > 0 && (
        <ErrorBox
          title="Aucune décision ne peut être appliquée"
          message="Le fichier s'applique en entier ou pas du tout : corrigez ou retirez les lignes refusées, puis importez-le à nouveau."
        />
      )}
    </div>
  )
}

/**
 * « Importer un fichier rempli »: a reviewer sends back the stage file they filled in offline. The
 * file is read in a worker, every decision is checked by the database as the reviewer (preview), then all are applied
 * at once, or none.
 */
export function OfflineUpload({ read }: { read?: Parameters<typeof useOfflineUpload>[0] }) {
  const [open, setOpen] = useState(false)
  const [inputKey, setInputKey] = useState(0)
  const upload = useOfflineUpload(read)

  const close = () => {
    if (upload.applying) return
    setOpen(false)
    upload.reset()
    setInputKey((key) => key + 1)
  }

  const canApply = !upload.busy && upload.preview !== null && upload.refused === 0 && upload.applicable > 0 && upload.appliedCount === null
  const footer = (
    <>
      <Button variant="outline" onClick={close} disabled={upload.applying}>
        {upload.appliedCount === null ? 'Annuler' : 'Retour à mes revues'}
      </Button>
      {upload.appliedCount === null && (
        <Button onClick={() => void upload.apply()} disabled={!canApply} loading={upload.applying}>
          {`Appliquer ${countText(upload.applicable, 'décision', 'décisions')}`}
        </Button>
      )}
    </>
  )

  return (
    <>
      <div className="mt-6 flex justify-end">
        <Button variant="outline" leftIcon={<FileUp aria-hidden="true" className="h-4 w-4" />} onClick={() => setOpen(true)}>
          Importer un fichier rempli
        </Button>
      </div>
      <Dialog
        open={open}
        onClose={close}
        title="Importer un fichier rempli"
        description="Le fichier Excel de votre étape (Manager, BPO Métier ou BPO Groupe), complété hors ligne : « Validé » ou « Refusé » dans la colonne de validation de votre étape."
        size="lg"
        footer={footer}
      >
        <div className="space-y-4">
          <FileInput
            key={inputKey}
            label="Fichier rempli (.xlsx)"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            help="20 Mo et 2 000 décisions au plus. Les décisions sont vérifiées avant d'être appliquées."
            disabled={upload.busy || upload.applying}
            onFile={(file) => void upload.choose(file)}
          />
          {upload.busy && <Spinner label="Lecture et vérification du fichier…" className="justify-start" />}
          {upload.error && <ErrorBox message={upload.error} />}
          {upload.appliedCount !== null && (
            <p role="status" className="flex items-center gap-2 rounded-md bg-green-50 p-3 text-sm text-green-900">
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-700" />
              {`${countText(upload.appliedCount, 'décision appliquée', 'décisions appliquées')}.`}
            </p>
          )}
          {upload.file && upload.preview && (
            <>
              <Summary file={upload.file} applicable={upload.applicable} refused={upload.refused} />
              <PreviewTable lines={upload.preview} applied={upload.appliedCount !== null} />
            </>
          )}
        </div>
      </Dialog>
    </>
  )
}
