// Unit tests (test/unit: the plain modules of src/lib) and the integration test (test/integration:
// the compiled extension against a real `ripple serve` through a stub of the VS Code API).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 10_000,
    restoreMocks: true,
  },
});
