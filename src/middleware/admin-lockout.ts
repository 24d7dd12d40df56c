// The admin lockout of §7: 10 failed operator-token attempts from one address within 10 minutes
// lock that address out of the admin routes for the rest of those 10 minutes, even with the right
// token, so the token cannot be guessed at speed. A missing token counts as a failure.
//
// Counted in a Durable Object, one per address: the rate-limiting binding only knows periods of 10
// or 60 seconds and cannot hold a lock, and D1 would add a round trip to every request. The object
// is the one place in the world that counts its address, so the lock holds across locations.
import { DurableObject } from 'cloudflare:workers';

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 10 * 60_000;

/** The failures counted in the window that began with the first of them. */
type Window = { startedAt: number; failures: number };

export class AdminLockout extends DurableObject<Env> {
  private window: Window | undefined;

  private async current(now: number): Promise<Window | undefined> {
    this.window ??= await this.ctx.storage.get<Window>('window');
    if (this.window && now - this.window.startedAt >= LOCKOUT_WINDOW_MS) {
      this.window = undefined;
      await this.ctx.storage.delete('window');
    }
    return this.window;
  }

  /** When the lock ends (epoch ms), or null while the address may try. */
  async lockedUntil(now = Date.now()): Promise<number | null> {
    const window = await this.current(now);
    return window && window.failures >= LOCKOUT_FAILURES ? window.startedAt + LOCKOUT_WINDOW_MS : null;
  }

  async recordFailure(now = Date.now()): Promise<void> {
    const window = (await this.current(now)) ?? { startedAt: now, failures: 0 };
    this.window = { ...window, failures: window.failures + 1 };
    await this.ctx.storage.put('window', this.window);
  }
}

/** The lockout counter of one client address. */
export const adminLockoutOf = (env: Env, address: string) => env.ADMIN_LOCKOUT.get(env.ADMIN_LOCKOUT.idFromName(address));
