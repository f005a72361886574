// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { charts, statesOf } from '../../machines/catalogue';
import { createApp } from '../../src/server/app';
import { startTestServer } from '../server/support/harness';
import { screen, startScreenHarness, within } from './support/screen-harness';

// /dev/machines: the product owner's page of every statechart (demo mode only)
const h = await startScreenHarness();

describe('/dev/machines', () => {
  it('lists every chart with its diagram and, per state, what the member sees and can do', { timeout: 60_000 }, async () => {
    await h.open('/dev/machines');
    for (const { file, machine } of charts) {
      // (plain DOM queries: role queries over every chart's diagram take seconds)
      const section = document.getElementById(machine.id)!;
      expect(section.querySelector('p')?.textContent).toBe(file);
      const terms = [...section.querySelectorAll('dt')].map((t) => t.textContent!.replace(/ \((final|parallel)\)$/, ''));
      expect(terms).toEqual(statesOf(machine).map((s) => s.path));
      const said = [...section.querySelectorAll('dd')].map((d) => d.textContent);
      expect(said).toEqual(statesOf(machine).map((s) => s.description ?? 'No description yet.'));
    }
    expect(
      within(document.getElementById('authLogin')!).getByText('Log in with a password: the password field shows, no code button.'),
    ).toBeTruthy();
    // the diagram is drawn in the page (Graphviz in WASM, loaded by this page only)
    const diagram = await screen.findByTestId('diagram-authSmsCode').then(async (d) => {
      for (let i = 0; i < 200 && !d.querySelector('svg'); i++) await new Promise((r) => setTimeout(r, 50));
      return d;
    });
    expect(diagram.querySelector('svg')?.textContent).toContain('coolingDown');
  });
});

describe('/dev/machines outside demo mode', async () => {
  const prod = await startTestServer({ config: { demo: false } });
  const demo = await startTestServer();
  const page = async () => new Response('the app');
  it('is not served: 404, while demo mode renders it', async () => {
    expect((await createApp(prod.deps, { render: page }).request('/dev/machines')).status).toBe(404);
    expect((await createApp(demo.deps, { render: page }).request('/dev/machines')).status).toBe(200);
    // the other pages render in both
    expect((await createApp(prod.deps, { render: page }).request('/about')).status).toBe(200);
  });
});
