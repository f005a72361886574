import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import type { AnyActorRef } from 'xstate';

/**
 * Actors that outlive one route, held by the app (one browser tab) rather than by a module: each
 * app, and so each test's render, has its own, and they stop when the app unmounts. A flow that spans
 * pages (the checkout: agreement, /payt, /payf, /pays, /orderdetail) keeps its actor in a slot here.
 */
export interface ActorSlot<A extends AnyActorRef = AnyActorRef> {
  current?: { actor: A; key?: string };
}

const SlotsContext = createContext<Map<string, ActorSlot> | null>(null);

export function SharedActorsProvider(props: { children: ReactNode }) {
  const slots = useRef(new Map<string, ActorSlot>()).current;
  useEffect(() => () => slots.forEach((s) => s.current?.actor.stop()), [slots]);
  return <SlotsContext.Provider value={slots}>{props.children}</SlotsContext.Provider>;
}

/** The app's slot of that name (null outside the providers, e.g. a screen rendered alone). */
export function useActorSlot<A extends AnyActorRef>(name: string): ActorSlot<A> | null {
  const slots = useContext(SlotsContext);
  if (!slots) return null;
  if (!slots.has(name)) slots.set(name, {});
  return slots.get(name) as ActorSlot<A>;
}
