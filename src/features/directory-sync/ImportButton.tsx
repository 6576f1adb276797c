import { useState } from 'react'
import { Upload } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { APPLICATIONS_FORMAT, DIRECTORY_FORMAT, type SyncKind } from './formats'
import { SyncImportDialog } from './SyncImportDialog'

const FORMATS = { directory: DIRECTORY_FORMAT, applications: APPLICATIONS_FORMAT } as const

/** « Importer un fichier » on the Users or Applications page, opening the import dialog of that kind. */
export function ImportButton({ kind }: { kind: SyncKind }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button variant="outline" leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} onClick={() => setOpen(true)}>
        {kind === 'directory' ? "Importer l'annuaire" : 'Importer des applications'}
      </Button>
      {open && <SyncImportDialog format={FORMATS[kind]} onClose={() => setOpen(false)} />}
    </>
  )
}
