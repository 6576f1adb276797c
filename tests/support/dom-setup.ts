import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Pages are lazy chunks that jsdom tests transform on first use; on a busy CI machine that alone can take
// more than Testing Library's default second, and a findBy* must not fail for it.
configure({ asyncUtilTimeout: 5000 })

afterEach(() => cleanup())
