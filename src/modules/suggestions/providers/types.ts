import type { SuggestionItemValue, SuggestionKindValue } from '../schemas';

/** What a provider knows about the caller's work, from their own records. */
export type WorkContext = {
  project: { name: string; hourlyRate: number | null; budget: number | null; currency: string; clientName: string | null } | null;
  /** From the caller's invoice lines: typical hours per line and typical rate (minor units per hour). */
  history: { lines: number; medianHours: number | null; medianRate: number | null; currency: string | null };
};

export type SuggestionJob = { kind: SuggestionKindValue; task: string; context: WorkContext };

export interface SuggestionProvider {
  readonly name: string;
  /** Returns raw suggestions; the caller validates them, so a provider may return anything. */
  suggest(job: SuggestionJob): Promise<unknown>;
}

export type { SuggestionItemValue };
