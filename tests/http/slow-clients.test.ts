// A client that sends its request headers byte by byte must not hold a connection for a minute: header and
// request timeouts are set where the HTTP server is made (server/boot.ts, HTTP_*_TIMEOUT_MS; issue 9 §5).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({ HTTP_HEADERS_TIMEOUT_MS: "1500", HTTP_REQUEST_TIMEOUT_MS: "3000" });
});
afterAll(async () => portal?.stop());

/** Opens a socket and drips a request's headers one byte every `everyMs`; resolves with how long the server kept it open. */
function drip(url: string, everyMs: number, maxMs: number): Promise<{ ms: number; closedByServer: boolean }> {
  const { hostname, port } = new URL(url);
  const request = `GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: ${"a".repeat(400)}\r\n\r\n`;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    let i = 0;
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ ms: Date.now() - started, closedByServer });
    };
    const timer = setInterval(() => {
      if (i < request.length && socket.writable) socket.write(request[i++]);
    }, everyMs);
    const limit = setTimeout(() => finish(false), maxMs);
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
  });
}

describe("slow clients", () => {
  it("closes a connection whose headers do not arrive within the headers timeout", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => drip(portal.url, 50, 10_000)));
    for (const r of results) {
      expect(r.closedByServer).toBe(true);
      expect(r.ms).toBeLessThan(5_000);
    }
    // The portal still answers everyone else.
    expect((await fetch(`${portal.url}/healthz`)).status).toBe(200);
  }, 20_000);
});
