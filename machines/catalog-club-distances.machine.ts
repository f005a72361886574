import { assign, fromPromise, setup } from 'xstate';
import type { ClubDistance } from '../src/api/catalog';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';

/** What the browser says about geolocation before anything is asked (the Permissions API's answer). */
export type GeoPermission = 'granted' | 'prompt' | 'denied';

export interface Position {
  lat: number;
  lng: number;
}

export interface ClubDistancesContext {
  /** where the browser placed the member */
  position?: Position;
  /** metres to each club, as the server counted them */
  distances?: ClubDistance[];
}

export type ClubDistancesEvent = { type: 'distances.locate' } | { type: 'distances.retry' };

/** GeolocationPositionError.PERMISSION_DENIED: the member (or the browser's setting) said no. */
const PERMISSION_DENIED = 1;

/**
 * How far each club is from the member (spec §2 "clubs with distance"), once per app (a browser tab):
 * the lists render at once; a browser that already granted geolocation is asked for the position by
 * itself, otherwise the member taps to be located; the distances come from the server. A refusal or
 * a failure is said, with a way to try again. Effects are provided by the app: actors
 * checkPermission and position (the browser's), fetchDistances (the API).
 * Tags say what the locate line shows: `checking` nothing yet, `offered` the "locate me" link,
 * `locating` "locating…" (while the browser or the server is asked), `located` the distances,
 * `denied` and `unavailable` why not, with "locate again".
 * `end` a state where the flow is over though the chart still answers there (no distances, locate again): the screen
 * offers the next thing to do (decision 103).
 */
export const catalogClubDistancesMachine = setup({
  types: {
    context: {} as ClubDistancesContext,
    events: {} as ClubDistancesEvent,
    tags: {} as 'checking' | 'offered' | 'locating' | 'located' | 'denied' | 'unavailable' | 'end',
  },
  actors: {
    checkPermission: fromPromise<GeoPermission>(async () => {
      throw new Error('checkPermission is provided by the app');
    }),
    position: fromPromise<Position>(async () => {
      throw new Error('position is provided by the app');
    }),
    fetchDistances: fromPromise<Envelope<ClubDistance[]>, Position>(async () => {
      throw new Error('fetchDistances is provided by the app');
    }),
  },
  actions: {
    keepPosition: assign({ position: (_, params: { position: Position }) => params.position }),
    keepDistances: assign({ distances: (_, params: { distances: ClubDistance[] }) => params.distances }),
  },
  guards: {
    permission: (_, params: { is: GeoPermission; answer: GeoPermission }) => params.answer === params.is,
    positionDenied: (_, params: { error: unknown }) => (params.error as { code?: unknown } | null)?.code === PERMISSION_DENIED,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'catalogClubDistances',
  context: {},
  initial: 'checkingPermission',
  states: {
    checkingPermission: {
      description:
        'The clubs are listed without distances while the app asks the browser whether the member has already allowed locating; nothing is offered yet.',
      tags: ['checking'],
      invoke: {
        id: 'checkPermission',
        src: 'checkPermission',
        onDone: [
          { guard: { type: 'permission', params: ({ event }) => ({ is: 'granted' as const, answer: event.output }) }, target: 'locating' },
          { guard: { type: 'permission', params: ({ event }) => ({ is: 'denied' as const, answer: event.output }) }, target: 'denied' },
          { target: 'idle' },
        ],
        // a browser that cannot say: the member may still tap to be located
        onError: 'idle',
      },
    },
    idle: {
      description: 'The clubs without distances and a "locate me to show how far" link the member can tap.',
      tags: ['offered'],
      on: { 'distances.locate': 'locating' },
    },
    locating: {
      description: 'The browser is asked for the position (it may ask the member first): "locating…" is shown.',
      tags: ['locating'],
      invoke: {
        id: 'position',
        src: 'position',
        onDone: { target: 'fetching', actions: { type: 'keepPosition', params: ({ event }) => ({ position: event.output }) } },
        onError: [
          { guard: { type: 'positionDenied', params: ({ event }) => ({ error: event.error }) }, target: 'denied' },
          { target: 'unavailable' },
        ],
      },
    },
    fetching: {
      description: 'The position is known and the distances are asked of the server: "locating…" is still shown.',
      tags: ['locating'],
      invoke: {
        id: 'fetchDistances',
        src: 'fetchDistances',
        input: ({ context }) => context.position!,
        onDone: [
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'unavailable' },
          { target: 'located', actions: { type: 'keepDistances', params: ({ event }) => ({ distances: event.output.data }) } },
        ],
        onError: 'unavailable',
      },
    },
    located: {
      description: 'Each club shows how far it is, the nearest first; on every page of this visit (nothing is asked again).',
      tags: ['located'],
    },
    denied: {
      description:
        'Locating is not allowed: "no permission to locate, distances cannot be shown" with "locate again" (after the member allows it in the browser).',
      tags: ['denied', 'end'],
      on: { 'distances.retry': 'locating' },
    },
    unavailable: {
      description: 'No position or no distances could be had: "cannot get your position now" with "locate again".',
      tags: ['unavailable', 'end'],
      on: { 'distances.retry': 'locating' },
    },
  },
});
