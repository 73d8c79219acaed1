import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";

export default defineConfig({
  plugins: [remix(remixConfig)],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: { target: "es2020", assetsInlineLimit: 0 },
  ssr: { noExternal: [] },
  server: { host: "127.0.0.1" },
});
