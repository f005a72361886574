import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * A chart as Graphviz DOT text (nested and parallel states as clusters; on, always, after and invoke
 * done/error edges labelled with the event and the guard), drawn by `npm run machines`
 * (scripts/draw-machines.ts, to docs/machines/<id>.svg) and by the /dev/machines page, both with
 * @viz-js/viz (Graphviz in WASM).
 */
const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const nodeName = (n: AnyStateNode) => n.id;
const clusterName = (n: AnyStateNode) => `cluster_${n.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
const anchorName = (n: AnyStateNode) => `${n.id}::anchor`;
const isCompound = (n: AnyStateNode) => Object.keys(n.states).length > 0;

function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.(\d+)\./.exec(eventType);
  if (after) return `after ${Number(after[1]) >= 1000 ? `${Number(after[1]) / 1000} s` : `${after[1]} ms`}`;
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `${done[1]} done`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `${error[1]} error`;
  const stateDone = /^xstate\.done\.state\./.exec(eventType);
  if (stateDone) return 'done';
  return eventType;
}

function guardName(t: AnyTransitionDefinition): string {
  const g = t.guard as undefined | string | { type?: string } | ((...a: unknown[]) => unknown);
  if (!g) return '';
  if (typeof g === 'string') return g;
  if (typeof g === 'function') return g.name || 'guard';
  return g.type ?? 'guard';
}

function actionNames(t: AnyTransitionDefinition): string[] {
  return (t.actions ?? [])
    .map((a: unknown) =>
      typeof a === 'string' ? a : typeof a === 'object' && a && 'type' in a ? String((a as { type: string }).type) : '',
    )
    .filter((a: string) => a && !a.startsWith('xstate.'));
}

/** DOT text for one machine. */
export function toDot(machine: AnyStateMachine): string {
  const lines: string[] = [];
  const edges: string[] = [];
  lines.push(`digraph ${q(machine.id)} {`);
  lines.push('  compound=true; rankdir=LR; fontname="Helvetica"; fontsize=12; nodesep=0.35; ranksep=0.5;');
  lines.push('  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#4b5563", fontname="Helvetica", fontsize=11];');
  lines.push('  edge [fontname="Helvetica", fontsize=9, color="#6b7280", arrowsize=0.7];');
  lines.push(`  label=${q(`machine ${machine.id}`)}; labelloc=t;`);

  // where an edge to or from a state starts and ends: the state itself, or its cluster's anchor
  const endpoint = (n: AnyStateNode) => (isCompound(n) ? anchorName(n) : nodeName(n));

  function stateLabel(n: AnyStateNode): string {
    const extra: string[] = [];
    for (const inv of n.invoke) extra.push(`invoke ${typeof inv.src === 'string' ? inv.src : inv.id}`);
    const entry = (n.entry ?? [])
      .map((a: unknown) =>
        typeof a === 'string' ? a : typeof a === 'object' && a && 'type' in a ? String((a as { type: string }).type) : '',
      )
      .filter((a: string) => a && !a.startsWith('xstate.'));
    if (entry.length) extra.push(`entry / ${entry.join(', ')}`);
    return [n.key, ...extra].join('\n');
  }

  function walk(n: AnyStateNode, indent: string) {
    if (isCompound(n)) {
      const parallel = n.type === 'parallel';
      lines.push(`${indent}subgraph ${clusterName(n)} {`);
      lines.push(
        `${indent}  label=${q(stateLabel(n) + (parallel ? ' (parallel)' : ''))}; style="rounded${parallel ? ',dashed' : ''}"; color="#9ca3af"; fontsize=11;`,
      );
      lines.push(`${indent}  ${q(anchorName(n))} [shape=point, width=0.01, style=invis, label=""];`);
      if (!parallel && n.initial) {
        const initialTarget = (n.initial.target as AnyStateNode[])[0];
        if (initialTarget) {
          const dot = `${n.id}::initial`;
          lines.push(`${indent}  ${q(dot)} [shape=circle, width=0.12, style=filled, fillcolor="#111827", label=""];`);
          const head = isCompound(initialTarget) ? `, lhead=${clusterName(initialTarget)}` : '';
          edges.push(`  ${q(dot)} -> ${q(endpoint(initialTarget))} [arrowsize=0.5${head}];`);
        }
      }
      for (const child of Object.values(n.states)) walk(child as AnyStateNode, indent + '  ');
      lines.push(`${indent}}`);
    } else {
      const final = n.type === 'final';
      lines.push(`${indent}${q(nodeName(n))} [label=${q(stateLabel(n))}${final ? ', peripheries=2' : ''}];`);
    }

    const transitions: AnyTransitionDefinition[] = [...[...n.transitions.values()].flat(), ...(n.always ?? [])];
    for (const t of transitions) {
      const guard = guardName(t);
      const actions = actionNames(t);
      const label = [eventLabel(t.eventType), guard ? `[${guard}]` : '', actions.length ? `/ ${actions.join(', ')}` : '']
        .filter(Boolean)
        .join(' ');
      const targets: readonly AnyStateNode[] = t.target?.length ? t.target : [n];
      for (const target of targets) {
        const attrs = [`label=${q(label)}`];
        if (isCompound(n)) attrs.push(`ltail=${clusterName(n)}`);
        if (isCompound(target) && target !== n) attrs.push(`lhead=${clusterName(target)}`);
        if (t.eventType === '') attrs.push('style=dashed');
        if (/^xstate\.error\./.test(t.eventType)) attrs.push('color="#b91c1c"', 'fontcolor="#b91c1c"');
        if (/^xstate\.after\./.test(t.eventType)) attrs.push('color="#1d4ed8"', 'fontcolor="#1d4ed8"');
        edges.push(`  ${q(endpoint(n))} -> ${q(endpoint(target))} [${attrs.join(', ')}];`);
      }
    }
  }

  for (const child of Object.values(machine.root.states)) walk(child as AnyStateNode, '  ');
  const initial = (machine.root.initial?.target as AnyStateNode[] | undefined)?.[0];
  if (initial) {
    lines.push('  "::start" [shape=circle, width=0.15, style=filled, fillcolor="#111827", label=""];');
    edges.push(`  "::start" -> ${q(endpoint(initial))}${isCompound(initial) ? ` [lhead=${clusterName(initial)}]` : ''};`);
  }
  return [...lines, ...edges, '}'].join('\n') + '\n';
}
