// The Durable Object that counts one address's failed operator-token attempts (admin-lockout.ts).
import { DurableObject } from 'cloudflare:workers';
import { LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS } from './admin-lockout';

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
