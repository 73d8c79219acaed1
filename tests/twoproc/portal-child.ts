// One web process of the two-machine test (ADR 078): the built portal on the environment it is given (its own
// DATA_DIR, the shared PostgreSQL, Redis and S3 store), saying its address on stdout.
import path from "node:path";
import { startPortal } from "../../server/boot";

const portal = await startPortal({ rootDir: path.resolve(".") });
process.stdout.write(`LISTENING ${portal.url}\n`);
const stop = () => portal.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
