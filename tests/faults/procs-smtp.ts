// A minimal SMTP server for the worker-kill test (ADR 046): it accepts every message, except that it can hold
// the first one (never answering its end of DATA), so the job sending it is caught in the middle and its
// worker can be killed there. A message counts as delivered only when the server answered 250 to its data.
import net from "node:net";

export interface FakeSmtp {
  port: number;
  /** Messages answered 250: the RCPT addresses and the raw data. */
  accepted: { to: string[]; data: string }[];
  /** Resolves when the held message's data has arrived (its sender now waits for an answer that never comes). */
  held: Promise<{ to: string[] }>;
  close(): Promise<void>;
}

export function startFakeSmtp(options: { holdFirst: boolean }): Promise<FakeSmtp> {
  const accepted: FakeSmtp["accepted"] = [];
  const sockets = new Set<net.Socket>();
  let holding = options.holdFirst;
  let onHeld: (value: { to: string[] }) => void = () => undefined;
  const held = new Promise<{ to: string[] }>((resolve) => (onHeld = resolve));
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffer = "";
    let inData = false;
    let stalled = false;
    let to: string[] = [];
    socket.write("220 fake.test ESMTP\r\n");
    socket.on("data", (chunk) => {
      if (stalled) return;
      buffer += chunk.toString("latin1");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          const data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          if (holding) {
            holding = false;
            stalled = true;
            onHeld({ to });
            return;
          }
          accepted.push({ to, data });
          to = [];
          socket.write("250 2.0.0 queued\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(" ")[0].toUpperCase();
        if (verb === "EHLO") socket.write("250-fake.test\r\n250 8BITMIME\r\n");
        else if (verb === "MAIL") {
          to = [];
          socket.write("250 2.1.0 ok\r\n");
        } else if (verb === "RCPT") {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? line);
          socket.write("250 2.1.5 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 2.0.0 bye\r\n");
          return;
        } else socket.write("250 ok\r\n");
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        accepted,
        held,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
