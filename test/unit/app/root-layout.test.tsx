// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { msg } from '@lingui/core/macro';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api/index';
import { setBrowserApi } from '../../../src/app/api-context';
import { RootLayout } from '../../../src/app/layout/root-layout';
import type { RouteHandle } from '../../../src/app/routes';
import { AppProviders } from '../../../src/app/providers';
import { renderWithI18n } from './render-with-i18n';

const handle = (h: Partial<RouteHandle> = {}): RouteHandle => ({ showFooter: true, requiresLogin: false, ...h });

/** A fake of the app's API: the booked count and the page views are what the layout calls. */
function fakeApi(booked: number) {
  const pageView = vi.fn(async () => ({ code: 200, status: true, data: { id: 1 } }));
  const bookedCount = vi.fn(async () => ({ code: 200, status: true, data: booked }));
  const api = { auth: { bookedCount, logout: vi.fn(async () => ({})) }, catalog: { pageView } } as unknown as Api;
  return { api, pageView, bookedCount };
}

function renderApp(opts: { path: string; member: boolean; booked?: number; slowLoader?: Promise<unknown> }) {
  const f = fakeApi(opts.booked ?? 0);
  setBrowserApi(f.api);
  const page = (text: string) => () => <p>{text}</p>;
  const router = createMemoryRouter(
    [
      {
        path: '/',
        Component: RootLayout,
        children: [
          { index: true, handle: handle({ title: msg`会馆首页` }), Component: page('home page') },
          { path: 'vipcard', handle: handle({ title: msg`会员卡` }), Component: page('cards page') },
          { path: 'takecourse', handle: handle(), Component: page('calendar page') },
          { path: 'login', handle: handle({ showFooter: false }), Component: page('login page') },
          { path: 'slow', handle: handle(), loader: () => opts.slowLoader ?? null, Component: page('slow page') },
        ],
      },
    ],
    { initialEntries: [opts.path] },
  );
  const cookies = opts.member ? { token: 'tok', customerId: '1', username: '13800000001', userLevel: '1' } : {};
  renderWithI18n(
    <AppProviders api={f.api} cookies={cookies}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...f, router };
}

const tab = (key: string) => document.querySelector(`[data-tab="${key}"]`) as HTMLElement | null;

describe('root layout (spec §2)', () => {
  // jsdom has no scrolling; ScrollRestoration calls it on every navigation
  beforeAll(() => void (window.scrollTo = vi.fn() as unknown as typeof window.scrollTo));
  afterEach(() => vi.useRealTimers());

  it('shows the five footer tabs; the active one follows the path', async () => {
    const { router } = renderApp({ path: '/vipcard', member: false });
    await screen.findByText('cards page');
    expect(['home', 'book', 'cards', 'courses', 'mine'].map((k) => tab(k)?.getAttribute('href'))).toEqual([
      '/',
      '/takecourse/takelistm',
      '/vipcard',
      '/mycourse',
      '/mine',
    ]);
    expect(tab('cards')?.getAttribute('aria-current')).toBe('page');
    expect(tab('home')?.getAttribute('aria-current')).toBeNull();
    await act(() => router.navigate('/takecourse'));
    expect(tab('book')?.getAttribute('aria-current')).toBe('page');
  });

  it('hides the footer when the route says showFooter false', async () => {
    renderApp({ path: '/login', member: false });
    await screen.findByText('login page');
    expect(tab('home')).toBeNull();
  });

  it('sets the page title from the route, falling back to the product title', async () => {
    const { router } = renderApp({ path: '/', member: false });
    await waitFor(() => expect(document.title).toBe('会馆首页'));
    await act(() => router.navigate('/takecourse'));
    await waitFor(() => expect(document.title).toBe('瑜伽会馆'));
  });

  it("badges the booking tab with a member's booked count above zero", async () => {
    renderApp({ path: '/', member: true, booked: 3 });
    await waitFor(() => expect(tab('book')?.textContent).toContain('3'));
  });

  it('shows no badge at zero', async () => {
    const member = renderApp({ path: '/', member: true, booked: 0 });
    await waitFor(() => expect(member.bookedCount).toHaveBeenCalled());
    expect(tab('book')?.textContent).not.toMatch(/\d/);
  });

  it('shows no badge for a visitor', async () => {
    renderApp({ path: '/', member: false, booked: 5 });
    await screen.findByText('home page');
    expect(tab('book')?.textContent).not.toMatch(/\d/);
  });

  it("refreshes a member's booked count on each navigation", async () => {
    const { router, bookedCount } = renderApp({ path: '/', member: true, booked: 1 });
    await waitFor(() => expect(bookedCount).toHaveBeenCalledTimes(1));
    await act(() => router.navigate('/vipcard'));
    await waitFor(() => expect(bookedCount).toHaveBeenCalledTimes(2));
    await act(() => router.navigate('/'));
    await waitFor(() => expect(bookedCount).toHaveBeenCalledTimes(3));
  });

  it('does not ask a visitor for a booked count', async () => {
    const { router, bookedCount } = renderApp({ path: '/', member: false });
    await act(() => router.navigate('/vipcard'));
    await screen.findByText('cards page');
    expect(bookedCount).not.toHaveBeenCalled();
  });

  it('reports a page view for every navigation, with a kept visitor id', async () => {
    localStorage.clear();
    const { router, pageView } = renderApp({ path: '/', member: false });
    await waitFor(() => expect(pageView).toHaveBeenCalledTimes(1));
    await act(() => router.navigate('/vipcard?x=1'));
    await waitFor(() => expect(pageView).toHaveBeenCalledTimes(2));
    const calls = pageView.mock.calls as unknown as [{ path: string; visitorId: string }][];
    expect(calls.map((c) => c[0].path)).toEqual(['/', '/vipcard?x=1']);
    expect(calls[0]![0].visitorId).toMatch(/^[0-9a-f]{32}$/);
    expect(calls[1]![0].visitorId).toBe(calls[0]![0].visitorId);
    expect(localStorage.getItem('visitorId')).toBe(calls[0]![0].visitorId);
  });

  it('a page view that fails does not disturb the screen', async () => {
    const { pageView } = renderApp({ path: '/', member: false });
    pageView.mockRejectedValue(new Error('offline'));
    await screen.findByText('home page');
  });

  it('shows a skeleton while a navigation to another page loads, then the page', async () => {
    let release!: () => void;
    const slowLoader = new Promise<null>((r) => (release = () => r(null)));
    const { router } = renderApp({ path: '/', member: false, slowLoader });
    await screen.findByText('home page');
    expect(document.querySelector('[data-skeleton]')).toBeNull();
    act(() => void router.navigate('/slow'));
    await waitFor(() => expect(document.querySelector('[data-skeleton]')).not.toBeNull());
    expect(screen.queryByText('home page')).toBeNull();
    expect(tab('home'), 'the footer stays while loading').not.toBeNull();
    await act(async () => release());
    await screen.findByText('slow page');
    expect(document.querySelector('[data-skeleton]')).toBeNull();
  });

  it('reloads a page restored from the back/forward cache', async () => {
    renderApp({ path: '/', member: false });
    await screen.findByText('home page');
    const reload = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, reload } });
    try {
      const shown = (persisted: boolean) => {
        const e = new Event('pageshow') as PageTransitionEvent;
        Object.defineProperty(e, 'persisted', { value: persisted });
        fireEvent(window, e);
      };
      shown(false);
      expect(reload).not.toHaveBeenCalled();
      shown(true);
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });
});
