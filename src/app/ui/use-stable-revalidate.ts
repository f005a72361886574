import { useCallback, useRef } from 'react';
import { useRevalidator } from 'react-router-dom';

/**
 * Reloads the route's data. React Router's revalidator object changes every render; this callback
 * stays the same, so a machine provided with it (`actions: { changed: revalidate }`) keeps its logic
 * stable and its actor is not recreated.
 */
export function useStableRevalidate(): () => void {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  return useCallback(() => void latest.current.revalidate(), []);
}
