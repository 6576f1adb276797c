import { useLiveInvalidation } from '@/lib/realtime'
import { controlKeys } from './control-rule-keys'

/**
 * Rules changed by another administrator, or an application renamed, show without a reload; so do the counts when
 * rights change, by bursts as the compliance page reads them.
 */
export function useLiveControlRules() {
  useLiveInvalidation(['control_rules', 'applications'], controlKeys.all)
  useLiveInvalidation(['user_rights'], [...controlKeys.all, 'rules-reach'], { debounceMs: 1000, maxWaitMs: 5000 })
}
