import { afterEach } from 'vitest';

// React Testing Library leaks DOM between tests unless cleaned (STACK-NOTES: globals are off).
afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});

// React's development build (the one `act` needs) records where each element was created, an Error
// captured per element, for the component stacks of its warnings: a tenth of the screen tests' CPU
// (three path files: 42 against 38 core-seconds). Its warnings still print, without that stack;
// REACT_OWNER_STACKS=1 keeps it for a debugging run. The counter React keeps to stop recording after
// 10,000 elements a render is held at that limit.
if (typeof document !== 'undefined' && process.env.REACT_OWNER_STACKS !== '1') {
  const React = await import('react');
  const internals = (React as unknown as Record<string, object | undefined>)
    .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
  if (internals) Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', { get: () => 1e4, set: () => {} });
}
