// A call to another worker (the renderer) bounded in time: one that does not answer at all must not hold a queue
// message, an email or a request for ever.

/** `call`'s answer, or after `ms` what `late` answers (or throws). */
export async function inTime<T>(call: Promise<T>, ms: number, late: () => T): Promise<T> {
  // Set at once: a promise's executor runs before `new Promise` returns.
  let timer!: ReturnType<typeof setTimeout>;
  const timeout = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
