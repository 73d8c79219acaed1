import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";

export default defineConfig({
  plugins: [remix(remixConfig)],
  resolve: {
    // One set of aliases (tsconfig.json "paths" says the same for tsc and tsx).
    alias: [
      { find: /^#common\//, replacement: new URL("./app/common/", import.meta.url).pathname },
      { find: /^#app\//, replacement: new URL("./app/", import.meta.url).pathname },
      { find: /^#server\//, replacement: new URL("./server/", import.meta.url).pathname },
    ],
  },
  build: { target: "es2020", assetsInlineLimit: 0 },
  ssr: { noExternal: [] },
  server: { host: "127.0.0.1" },
});
