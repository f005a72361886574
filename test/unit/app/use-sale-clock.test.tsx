// @vitest-environment jsdom
import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FlashSaleActivity } from '../../../src/api/flash-sale';
import { useSaleClock } from '../../../src/app/screens/flash-sale/use-sale-clock';

const sale: FlashSaleActivity = {
  id: 1,
  sellNumber: 3,
  maxNumber: 30,
  isUable: true,
  message: null,
  phase: 'live',
  goodsId: 9,
  activityId: 1,
  title: '双十一',
  startsAt: '2030-11-11T00:00:00.000Z',
  endsAt: '2030-11-12T00:00:00.000Z',
  serverNow: '2030-11-11T08:00:00.000Z',
  mine: false,
  myOrder: null,
};

function Clock() {
  return <output>{new Date(useSaleClock(sale)).toISOString()}</output>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the flash sale countdown runs on the server clock', () => {
  it("starts at the server's time and counts the phone's elapsed seconds, whatever the phone's clock says", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
    const router = createMemoryRouter([{ path: '/', element: <Clock />, loader: () => null }], {
      hydrationData: { loaderData: { '0': null } },
    });
    const { container } = render(<RouterProvider router={router} />);
    expect(container.textContent).toBe('2030-11-11T08:00:00.000Z');
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(container.textContent).toBe('2030-11-11T08:00:03.000Z');
  });
});
