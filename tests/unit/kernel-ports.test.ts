// Ports: a function a lower area calls and a higher area provides at start-up (server/kernel/ports.ts, ADR 059).
import { describe, expect, it, vi } from "vitest";
import { definePort } from "../../server/kernel/ports";

describe("definePort", () => {
  it("calls the provided function with the caller's arguments and gives back its answer", async () => {
    const port = definePort<(a: number, b: string) => Promise<string>>("test-port-answer");
    expect(port.provided).toBe(false);
    const provider = async (a: number, b: string) => `${b}${a}`;
    port.provide(provider);
    port.provide(provider);
    expect(port.provided).toBe(true);
    expect(await port.call(7, "n")).toBe("n7");
  });

  it("throws when nothing provides it, and refuses a second provider", () => {
    const port = definePort<() => number>("test-port-missing");
    expect(() => port.call()).toThrow(/nothing provides port test-port-missing/);
    port.provide(() => 1);
    expect(() => port.provide(() => 2)).toThrow(/provided already/);
    expect(port.call()).toBe(1);
  });

  it("is one port across copies of the module (the Remix build bundles its own server/)", async () => {
    definePort<() => string>("test-port-copied").provide(() => "from the first copy");
    vi.resetModules();
    const copy = await import("../../server/kernel/ports");
    expect(copy.definePort).not.toBe(definePort);
    expect(copy.definePort<() => string>("test-port-copied").call()).toBe("from the first copy");
  });
});
