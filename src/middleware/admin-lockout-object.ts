// The Durable Object that counts failed operator-token attempts for the addresses hashed to it
// (admin-lockout.ts). Each address's window is one stored key; an alarm deletes the windows that
// have ended, so what is stored stays what the last 10 minutes of failures left.
import { DurableObject } from 'cloudflare:workers';
import { LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS } from './admin-lockout';

/** The failures counted in the window that began with the first of them. */
type Window = { startedAt: number; failures: number };

const PREFIX = 'window:';

export class AdminLockout extends DurableObject<Env> {
  private windows: Map<string, Window> | undefined;

  private async all(): Promise<Map<string, Window>> {
    if (!this.windows) {
      const stored = await this.ctx.storage.list<Window>({ prefix: PREFIX });
      this.windows = new Map([...stored].map(([key, window]) => [key.slice(PREFIX.length), window]));
    }
    return this.windows;
  }

  private async current(address: string, now: number): Promise<Window | undefined> {
    const windows = await this.all();
    const window = windows.get(address);
    if (window && now - window.startedAt >= LOCKOUT_WINDOW_MS) {
      windows.delete(address);
      await this.ctx.storage.delete(PREFIX + address);
      return undefined;
    }
    return window;
  }

  /** When the address's lock ends (epoch ms), or null while it may try. */
  async lockedUntil(address: string, now = Date.now()): Promise<number | null> {
    const window = await this.current(address, now);
    return window && window.failures >= LOCKOUT_FAILURES ? window.startedAt + LOCKOUT_WINDOW_MS : null;
  }

  async recordFailure(address: string, now = Date.now()): Promise<void> {
    const window = (await this.current(address, now)) ?? { startedAt: now, failures: 0 };
    const next = { ...window, failures: window.failures + 1 };
    (await this.all()).set(address, next);
    await this.ctx.storage.put(PREFIX + address, next);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(next.startedAt + LOCKOUT_WINDOW_MS);
  }

  /** Deletes the windows that have ended; wakes again for the earliest one still open. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    let earliestEnd: number | null = null;
    for (const [address, window] of await this.all()) {
      const end = window.startedAt + LOCKOUT_WINDOW_MS;
      if (end <= now) await this.current(address, now);
      else earliestEnd = Math.min(earliestEnd ?? end, end);
    }
    if (earliestEnd !== null) await this.ctx.storage.setAlarm(earliestEnd);
  }
}
