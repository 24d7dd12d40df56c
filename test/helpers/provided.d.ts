// Values vitest.config.ts provides to tests (inject('…')).
export {};

declare module 'vitest' {
  interface ProvidedContext {
    /** The contract fuzzer's seed (FUZZ_SEED replays a run). */
    fuzzSeed: number;
    /** Cases per operation (FUZZ_RUNS). */
    fuzzRuns: number;
  }
}
