import { Block, BlockTitle } from 'konsta/react';
import { useEffect, useState } from 'react';
import { charts, statesOf } from '../../../../machines/catalogue';
import { toDot } from '../../../../machines/diagram';

/**
 * /dev/machines (demo mode only: the server answers 404 elsewhere, see createApp): every chart in
 * machines/ and machines/domain/ with its diagram (the DOT that `npm run machines` draws, rendered
 * here with Graphviz in WASM, loaded only on this page) and, per state, what the member sees and can
 * do there (the state's `description`). A page for the product owner, in plain English.
 */
export default function MachinesScreen() {
  const [svgs, setSvgs] = useState<Record<string, string>>({});
  useEffect(() => {
    let live = true;
    void import('@viz-js/viz').then(async ({ instance }) => {
      const viz = await instance();
      const drawn = Object.fromEntries(
        charts.map(({ machine }) => [machine.id, viz.renderString(toDot(machine), { format: 'svg', engine: 'dot' })]),
      );
      if (live) setSvgs(drawn);
    });
    return () => {
      live = false;
    };
  }, []);

  return (
    <>
      <Block className="!mt-6">
        <h1 className="text-xl font-semibold">Statecharts</h1>
        <p className="mt-1 text-sm text-black/60">
          Every flow with real state, as the app and the server run it. Each chart: its diagram, then each state with what the member sees
          and can do in it.
        </p>
        <ul className="mt-2 flex flex-wrap gap-x-3 text-sm">
          {charts.map(({ machine }) => (
            <li key={machine.id}>
              <a className="text-primary" href={`#${machine.id}`}>
                {machine.id}
              </a>
            </li>
          ))}
        </ul>
      </Block>
      {charts.map(({ file, machine }) => (
        <section key={machine.id} id={machine.id} aria-label={machine.id}>
          <BlockTitle>{machine.id}</BlockTitle>
          <Block strong inset>
            <p className="text-xs text-black/60">{file}</p>
            <div
              className="mt-2 overflow-x-auto"
              data-testid={`diagram-${machine.id}`}
              dangerouslySetInnerHTML={{ __html: svgs[machine.id] ?? '' }}
            />
            <dl className="mt-3 text-sm">
              {statesOf(machine).map((s) => (
                <div key={s.path} className="mt-2">
                  <dt className="font-mono text-xs">
                    {s.path}
                    {s.type === 'final' ? ' (final)' : s.type === 'parallel' ? ' (parallel)' : ''}
                  </dt>
                  <dd className={s.description ? '' : 'text-black/60'}>{s.description ?? 'No description yet.'}</dd>
                </div>
              ))}
            </dl>
          </Block>
        </section>
      ))}
    </>
  );
}
