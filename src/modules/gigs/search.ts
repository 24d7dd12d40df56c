// Turns what a person typed into a safe FTS5 query: only words survive, each quoted (so no FTS
// operator or syntax in the input can do anything) and prefix-matched, all of them required.
export function toFtsQuery(input: string): string | null {
  const words = input.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words.slice(0, 10).map((word) => `"${word}"*`).join(' ');
}
