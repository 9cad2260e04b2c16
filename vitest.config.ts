import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Files run in parallel processes; each gets its own database (tests/support/server.ts).
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
})
