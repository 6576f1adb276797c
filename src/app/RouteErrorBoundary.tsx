import { Component, type ErrorInfo, type ReactNode } from 'react'
import { ErrorPage } from '@/pages/ErrorPage'

interface RouteErrorBoundaryProps {
  /** Changing it (the path) clears a caught error, so that navigating away recovers. */
  resetKey: string
  children: ReactNode
}

interface RouteErrorBoundaryState {
  error: Error | null
  resetKey: string
}

/** The app root's error page (SPEC §8): a page that fails to load or render shows the error page with its message. */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  state: RouteErrorBoundaryState = { error: null, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<RouteErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  static getDerivedStateFromProps(props: RouteErrorBoundaryProps, state: RouteErrorBoundaryState) {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey }
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unhandled error in a page', error, info.componentStack)
  }

  render() {
    return this.state.error ? <ErrorPage detail={this.state.error.message} /> : this.props.children
  }
}
