// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useMorePages } from '../../../src/app/ui/use-more-pages';
import type { Envelope, Paged } from '../../../src/domain/envelope';

const page = (list: number[], pagenum: number, total: number): Envelope<Paged<number>> => ({
  code: 200,
  status: true,
  data: { list, total, pagenum, pagesize: 2 },
});

describe('a paged list loads its later pages as asked (DESIGN.md §5)', () => {
  it('appends page 1, then page 2, then has no more', async () => {
    const fetchPage = vi.fn((n: number) => Promise.resolve(n === 1 ? page([3, 4], 1, 5) : page([5], 2, 5)));
    const { result } = renderHook(() => useMorePages(page([1, 2], 0, 5).data, 'k', fetchPage));
    expect(result.current.list).toEqual([1, 2]);
    expect(result.current.hasMore).toBe(true);
    await act(() => result.current.load());
    expect(fetchPage).toHaveBeenLastCalledWith(1, 2);
    await act(() => result.current.load());
    expect(fetchPage).toHaveBeenLastCalledWith(2, 2);
    expect(result.current.list).toEqual([1, 2, 3, 4, 5]);
    expect(result.current.hasMore).toBe(false);
    await act(() => result.current.load());
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('a failed page can be retried and asks for the same page again', async () => {
    const fetchPage = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce(page([3], 1, 3));
    const { result } = renderHook(() => useMorePages(page([1, 2], 0, 3).data, 'k', fetchPage));
    await act(() => result.current.load());
    expect(result.current.failed).toBe(true);
    expect(result.current.list).toEqual([1, 2]);
    await act(() => result.current.load());
    expect(fetchPage.mock.calls.map((c) => c[0])).toEqual([1, 1]);
    expect(result.current.list).toEqual([1, 2, 3]);
    expect(result.current.failed).toBe(false);
  });

  it('a new first page (another filter) drops the pages loaded for the old one', async () => {
    const fetchPage = vi.fn(() => Promise.resolve(page([3], 1, 3)));
    const { result, rerender } = renderHook(({ first, key }) => useMorePages(first, key, fetchPage), {
      initialProps: { first: page([1, 2], 0, 3).data, key: 'a' },
    });
    await act(() => result.current.load());
    expect(result.current.list).toEqual([1, 2, 3]);
    rerender({ first: page([7], 0, 1).data, key: 'b' });
    await waitFor(() => expect(result.current.list).toEqual([7]));
    expect(result.current.hasMore).toBe(false);
  });
});
