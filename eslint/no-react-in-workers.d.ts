import type { Rule } from 'eslint'

export declare const noReactInWorkers: Rule.RuleModule
export declare function reactChain(entry: string, srcRoot: string): string[] | null
