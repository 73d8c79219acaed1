// A function a lower area needs and a higher area provides (ADR 059). The order form reads the order a re-edit
// reworks (its services, whether a re-edit is open), yet orders load the order form (placing one), so the order
// form may not load orders. The lower area defines the port, whose signature is the contract, and calls it; the
// higher area provides it at start-up (server/event-handlers.ts, the composition root), as with events
// (./events.ts). An event has any number of handlers and no answer; a port has exactly one provider and answers.
//
// Process-wide by name, like the events: the Remix server build bundles its own copy of server/, whose pages call
// the port while start-up provided it on the copy server/boot.ts loads (ADR 056).
const REGISTRY = Symbol.for("portal.ports");
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of every port's function, typed by definePort
type AnyFunction = (...args: any[]) => unknown;
type Registry = Map<string, AnyFunction>;
const registry = (): Registry => ((globalThis as { [REGISTRY]?: Registry })[REGISTRY] ??= new Map());

export interface Port<F extends AnyFunction> {
  readonly name: string;
  /** Provides the function (at start-up). The same function again is a no-op; a different one is a second owner, refused. */
  provide(fn: F): void;
  /** Calls the provided function; nothing provided is a start-up fault, thrown rather than answered with a guess. */
  call(...args: Parameters<F>): ReturnType<F>;
  readonly provided: boolean;
}

export function definePort<F extends AnyFunction>(name: string): Port<F> {
  return {
    name,
    provide(fn) {
      const table = registry();
      const current = table.get(name);
      if (current && current !== fn) throw new Error(`port ${name} is provided already`);
      table.set(name, fn);
    },
    call(...args) {
      const fn = registry().get(name) as F | undefined;
      if (!fn) throw new Error(`nothing provides port ${name} (server/event-handlers.ts)`);
      return fn(...args) as ReturnType<F>;
    },
    get provided() {
      return registry().has(name);
    },
  };
}
