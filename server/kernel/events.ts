// Typed events between areas (issue 21 §1, ADR 056). A lower area (billing, payments) must not import a higher
// one (orders, prepay), yet they have to react when money moves: an invoice settled marks its order paid, a
// prepayment's money becomes a balance. The lower area defines an event here-shaped (`defineEvent`) in its own
// folder and emits it; the higher area registers a handler with it at start-up (server/event-handlers.ts, the
// composition root), never the other way round.
//
// Two kinds, told apart by what the handler receives:
// - in-transaction events get the emitter's transaction handle (`trx`): the handler's writes commit or roll back
//   with the change that caused them (an order is paid exactly when its invoice is; nothing to reconcile);
// - after-commit events get the AppContext and run once the change is committed (cache invalidation: doing it
//   inside the transaction would let a reader cache the old state again before the commit).
// Work that is slow or talks to the outside world is not done in a handler: the handler enqueues a job in the
// transaction it was given (server/jobs), as the order's notification mail is.

// The handlers live in one process-wide table keyed by the event's name, not in the module: the Remix server
// build bundles its own copy of server/ (vite.config.ts resolves #server/* into it), so a page action emits
// through the bundle's copy of an event while start-up registered the handlers on the copy server/ loads.
// Keyed by name, both copies of `invoiceCredited` are one event with one list of handlers.
const REGISTRY = Symbol.for("portal.event-handlers");
type Registry = Map<string, EventHandler<never, never>[]>;
const registry = (): Registry => ((globalThis as { [REGISTRY]?: Registry })[REGISTRY] ??= new Map());

export type EventHandler<C, P> = (ctx: C, payload: P) => Promise<void>;

export interface PortalEvent<C, P> {
  readonly name: string;
  /** Registers a handler (at start-up). Registering the same function twice keeps one. */
  on(handler: EventHandler<C, P>): void;
  /** Runs every handler in registration order, each awaited; a handler's error is the emitter's error. */
  emit(ctx: C, payload: P): Promise<void>;
  /** How many handlers are registered (a start-up check and the tests). */
  readonly handlerCount: number;
}

export function defineEvent<C, P>(name: string): PortalEvent<C, P> {
  const table = registry();
  const handlers = (table.get(name) ?? table.set(name, []).get(name)!) as EventHandler<C, P>[];
  return {
    name,
    on(handler) {
      if (!handlers.includes(handler)) handlers.push(handler);
    },
    async emit(ctx, payload) {
      for (const handler of handlers) await handler(ctx, payload);
    },
    get handlerCount() {
      return handlers.length;
    },
  };
}
