import type { Reporter, TestCase } from '@playwright/test/reporter';

/** Ends the run with the plain "N passed, N failed, N skipped" line that CI reads. */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, ReturnType<TestCase['outcome']>>();

  onTestEnd(test: TestCase): void {
    this.outcomes.set(test.id, test.outcome());
  }

  onEnd(): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const outcome of this.outcomes.values()) {
      if (outcome === 'skipped') counts.skipped += 1;
      else if (outcome === 'unexpected') counts.failed += 1;
      else counts.passed += 1;
    }
    console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
