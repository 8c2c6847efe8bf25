// The app contract's method names and channels, with no dependencies, so the
// sandboxed preload (which can load no npm package) can build its bridge from
// them. shared/contract.ts checks at compile time that the two lists agree.
export const METHOD_NAMES = ['app:info'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

/** The IPC channel a method travels on. */
export const channelOf = (m: MethodName): string => `workbench:${m}`;
