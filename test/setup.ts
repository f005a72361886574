import { afterEach } from 'vitest';

// React Testing Library leaks DOM between tests unless cleaned (STACK-NOTES: globals are off).
afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});
