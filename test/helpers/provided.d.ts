// Values vitest.config.ts provides to tests (inject('…')).
export {};

declare module 'vitest' {
  interface ProvidedContext {
    /** The contract fuzzer's seed (FUZZ_SEED replays a run). */
    fuzzSeed: number;
    /** Random cases per operation, after one of each kind (FUZZ_RUNS). */
    fuzzRuns: number;
  }
}
