import { useState } from 'react'
import { Mail, UserCheck, UserX } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { useInviteUser, useSetUserActive } from './api'

interface Person {
  id: string
  name: string
  email: string
  active: boolean
}

/**
 * A person's access on the Users page: Désactiver a leaver (their account is refused at sign-in, their history kept),
 * Réactiver them, or send an invitation to set their password.
 */
export function UserAccessActions({ person, isCurrentUser }: { person: Person; isCurrentUser: boolean }) {
  const [confirming, setConfirming] = useState<'deactivate' | 'reactivate' | 'invite' | null>(null)
  const setActive = useSetUserActive()
  const invite = useInviteUser()
  const pending = setActive.isPending || invite.isPending
  const error = setActive.error?.message ?? invite.error?.message ?? null

  const close = () => {
    setConfirming(null)
    setActive.reset()
    invite.reset()
  }
  const confirm = () => {
    if (confirming === 'invite') invite.mutate(person.email, { onSuccess: close })
    else if (confirming) setActive.mutate({ userId: person.id, active: confirming === 'reactivate' }, { onSuccess: close })
  }

  const dialog = {
    deactivate: {
      title: 'Désactiver le compte',
      message: `${person.name} ne pourra plus se connecter. Ses droits apparaîtront parmi les risques du RSSI, avec la recommandation « Refuser » ; son historique est conservé.`,
      label: 'Désactiver',
    },
    reactivate: { title: 'Réactiver le compte', message: `${person.name} pourra de nouveau se connecter.`, label: 'Réactiver' },
    invite: {
      title: 'Envoyer une invitation',
      message: `Un e-mail sera envoyé à ${person.email} avec un lien pour choisir son mot de passe.`,
      label: "Envoyer l'invitation",
    },
  } as const

  return (
    <>
      {person.active && (
        <Button variant="ghost" size="sm" aria-label={`Inviter ${person.name}`} onClick={() => setConfirming('invite')}>
          <Mail aria-hidden="true" className="h-4 w-4" />
        </Button>
      )}
      {!isCurrentUser &&
        (person.active ? (
          <Button variant="ghost" size="sm" aria-label={`Désactiver ${person.name}`} onClick={() => setConfirming('deactivate')}>
            <UserX aria-hidden="true" className="h-4 w-4 text-orange-600" />
          </Button>
        ) : (
          <Button variant="ghost" size="sm" aria-label={`Réactiver ${person.name}`} onClick={() => setConfirming('reactivate')}>
            <UserCheck aria-hidden="true" className="h-4 w-4 text-green-600" />
          </Button>
        ))}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? dialog[confirming].title : ''}
        message={confirming ? dialog[confirming].message : ''}
        confirmLabel={confirming ? dialog[confirming].label : undefined}
        variant={confirming === 'deactivate' ? 'danger' : 'primary'}
        pending={pending}
        error={error}
        onClose={close}
        onConfirm={confirm}
      />
    </>
  )
}
