import type { ReactNode } from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { formatDateTime } from '@/lib/dates'
import { roleLabel } from '@/domain/labels'
import { useProfile } from '../api'
import { managerNameOf } from '../model'

export function IdentityCard({ userId }: { userId: string }) {
  const profile = useProfile(userId)
  return (
    <Card role="region" aria-label="Identité">
      <CardHeader>
        <CardTitle>Identité</CardTitle>
      </CardHeader>
      <CardContent>
        {profile.isPending ? (
          <Spinner className="py-4" />
        ) : profile.error ? (
          <ErrorBox message={profile.error.message} />
        ) : (
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
            <Field label="Nom">
              {profile.data.first_name} {profile.data.last_name}
            </Field>
            <Field label="E-mail">{profile.data.email}</Field>
            <Field label="Poste">{profile.data.position || '-'}</Field>
            <Field label="Département">{profile.data.department || '-'}</Field>
            <Field label="Rôle">{roleLabel(profile.data.role)}</Field>
            <Field label="Manager">{managerNameOf(profile.data) ?? 'Aucun manager'}</Field>
            <Field label="Dernière connexion">{formatDateTime(profile.data.last_login, 'Jamais')}</Field>
          </dl>
        )}
      </CardContent>
    </Card>
  )
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="font-medium text-gray-600">{label}</dt>
      <dd className="text-gray-900">{children}</dd>
    </div>
  )
}
