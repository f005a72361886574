/**
 * `npm run machines`: draws every statechart in machines/ (and machines/domain/) to
 * docs/machines/<id>.svg, offline: the machine definition is walked into Graphviz DOT (nested and
 * parallel states as clusters; on, always, after and invoke done/error edges labelled with the event
 * and the guard) and rendered with @viz-js/viz (Graphviz in WASM).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { instance } from '@viz-js/viz';
import { createServer } from 'vite';
import type { AnyStateMachine } from 'xstate';
import { toDot } from '../machines/diagram';

export { toDot };

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'docs/machines');

function isMachine(v: unknown): v is AnyStateMachine {
  return !!v && typeof v === 'object' && 'root' in v && 'id' in v && typeof (v as { transition?: unknown }).transition === 'function';
}

/**
 * Every machine exported by machines/*.machine.ts and machines/domain/*.machine.ts. They are loaded
 * through Vite with the app's own config, as the build loads them: machines import modules whose
 * messages are Lingui macros (src/domain/errors.ts), which plain Node cannot run.
 */
export async function loadMachines(): Promise<AnyStateMachine[]> {
  const vite = await createServer({
    configFile: path.join(root, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: false },
    appType: 'custom',
    logLevel: 'error',
  });
  const found = new Map<string, AnyStateMachine>();
  try {
    for (const dir of ['machines', 'machines/domain']) {
      let files: string[];
      try {
        files = readdirSync(path.join(root, dir))
          .filter((f) => f.endsWith('.machine.ts'))
          .sort();
      } catch {
        continue;
      }
      for (const f of files) {
        const mod = (await vite.ssrLoadModule(path.join(root, dir, f))) as Record<string, unknown>;
        for (const v of Object.values(mod)) if (isMachine(v)) found.set(v.id, v);
      }
    }
  } finally {
    await vite.close();
  }
  return [...found.values()];
}

async function main() {
  const viz = await instance();
  mkdirSync(outDir, { recursive: true });
  const machines = await loadMachines();
  for (const m of machines) {
    const svg = viz.renderString(toDot(m), { format: 'svg', engine: 'dot' });
    const file = path.join(outDir, `${m.id}.svg`);
    writeFileSync(file, svg);
    console.log(`drew ${path.relative(root, file)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
