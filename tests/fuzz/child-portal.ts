// A test portal in a process of its own, for the fuzz suite's connection inputs (ADR 047): a request that
// kills the web process must show as a dead process (or a new pid on /healthz), which it cannot while the
// portal shares the test's process (vitest catches the unhandled rejection and the process lives on).
// Prints one line `FUZZ-PORTAL {json}` once it serves: its address, pid, a signed-in researcher and staff
// member (cookie headers), the researcher's identity and a draft order form of theirs.
// Run by tests/fuzz/connections.test.ts with `node --import tsx`; needs the template database of the run.
import { startRelaxedPortal } from "../helpers/portal";
import { createOrderFormFor } from "../helpers/factories";
import { installProcessGuard } from "#server/process-guard";

// Short deadlines, so a stalled body costs the suite about a second (the server's own 408, issue 9 §5).
const portal = await startRelaxedPortal({
  HTTP_REQUEST_TIMEOUT_MS: process.env.FUZZ_REQUEST_TIMEOUT_MS ?? "1000",
  HTTP_HEADERS_TIMEOUT_MS: process.env.FUZZ_REQUEST_TIMEOUT_MS ?? "1000",
  LOG_LEVEL: process.env.FUZZ_PORTAL_LOG_LEVEL ?? "error",
});
// As `npm start` runs a web process (ADR 050): an unhandled rejection is logged with its request id (the suite
// reads the log and names the input), an uncaught exception ends the process (the suite sees the pid go).
installProcessGuard({ logger: portal.ctx.logger, onFatal: () => portal.stop() });
const researcher = await portal.researcher();
const staff = await portal.staff();
const form = await createOrderFormFor(portal.ctx, researcher, { services: ["standard-editing"] });
process.stdout.write(
  "FUZZ-PORTAL " +
    JSON.stringify({
      url: portal.url,
      pid: process.pid,
      researcher: researcher.client.cookieHeader(),
      staff: staff.client.cookieHeader(),
      identity: researcher.identity,
      formId: form.id,
    }) +
    "\n",
);
// Stopped by the suite with SIGTERM: close the server and the database cleanly.
process.once("SIGTERM", () => void portal.stop().then(() => process.exit(0)));
