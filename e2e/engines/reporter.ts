import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** One line per engine at the end: "firefox: 11 passed, 0 failed". */
export default class EngineCounts implements Reporter {
  private readonly counts = new Map<string, { passed: number; failed: number; skipped: number }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const engine = test.parent.project()?.name ?? 'unknown';
    const count = this.counts.get(engine) ?? { passed: 0, failed: 0, skipped: 0 };
    // The final outcome of the test (no retries here: each result is final).
    if (result.status === 'passed') count.passed += 1;
    else if (result.status === 'skipped') count.skipped += 1;
    else count.failed += 1;
    this.counts.set(engine, count);
  }

  onEnd(result: FullResult): void {
    console.log(`\ncross-engine subset (${result.status}):`);
    for (const [engine, count] of this.counts) console.log(`${engine}: ${count.passed} passed, ${count.failed} failed${count.skipped ? `, ${count.skipped} skipped` : ''}`);
  }
}
