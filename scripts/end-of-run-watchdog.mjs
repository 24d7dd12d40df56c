// A reporter that ends the run once every test file has reported, if the test runtime then fails to
// shut down. A whole-suite run has been seen to sit idle after its last file, every result in,
// never printing its summary or exiting, while a file or a directory run alone ends normally (the
// cause, somewhere in the test runtime's shutdown with the renderer worker beside the API, is not
// found yet). This prints the count a summary would have given and exits with
// its verdict, so a finished run is never left to a CI time limit. It does nothing when the run ends
// by itself (the timer is cleared then, and it never holds the process open).

const GRACE_MS = 60_000;

/** @implements {import('vitest/node').Reporter} */
export class EndOfRunWatchdog {
  expected = 0;
  /** @type {import('vitest/node').TestModule[]} */
  reported = [];
  /** @type {NodeJS.Timeout | undefined} */
  timer;

  onTestRunStart(specifications) {
    this.expected = specifications.length;
  }

  onTestModuleEnd(testModule) {
    this.reported.push(testModule);
    if (this.reported.length === this.expected) this.timer = setTimeout(() => this.endRun(), GRACE_MS).unref();
  }

  onTestRunEnd() {
    clearTimeout(this.timer);
  }

  endRun() {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of this.reported) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        count[state === 'passed' || state === 'failed' ? state : 'skipped'] += 1;
      }
    }
    const fileFailed = this.reported.some((testModule) => testModule.state() === 'failed');
    console.log(`\nEvery one of the ${this.expected} test files reported, but the test runtime did not shut down within ${GRACE_MS / 1000} s: ending the run.`);
    console.log(`${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
    process.exit(count.failed > 0 || fileFailed ? 1 : 0);
  }
}
