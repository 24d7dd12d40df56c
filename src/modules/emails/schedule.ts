// When a failed email is tried again (§10): after 1 min, 10 min, 1 h and 6 h; the fifth failed
// attempt is final. Invoice emails and invitation emails keep the same schedule.
export const EMAIL_RETRY_DELAYS_MS = [60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];
export const MAX_EMAIL_ATTEMPTS = EMAIL_RETRY_DELAYS_MS.length + 1;
