// The cron's walk through candidates (lib/chunked.ts): past a full chunk of ones that are not due
// yet, on to the ones that are, and never beyond its bound per run.
import { describe, expect, it } from 'vitest';
import { CRON_CHUNK, inChunks } from '../../src/lib/chunked';

const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ id: i, due: i >= CRON_CHUNK + 5 }));
const finder = (all: { id: number; due: boolean }[]) => async (after: { id: number } | undefined) =>
  all.filter((row) => row.id > (after?.id ?? -1)).slice(0, CRON_CHUNK);

describe('working through due records in chunks', () => {
  it('reaches what is due behind a whole chunk of records not due yet', async () => {
    const handled: number[] = [];
    await inChunks(finder(rows(CRON_CHUNK + 10)), async (row) => void (row.due && handled.push(row.id)), 10_000);
    expect(handled).toEqual([0, 1, 2, 3, 4].map((i) => CRON_CHUNK + 5 + i));
  });

  it('stops at its bound per run', async () => {
    let seen = 0;
    await inChunks(finder(rows(CRON_CHUNK * 5)), async () => void seen++, CRON_CHUNK * 2);
    expect(seen).toBe(CRON_CHUNK * 2);
  });
});
