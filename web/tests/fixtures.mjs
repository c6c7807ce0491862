// The golden protocol fixtures the Swift tests use (Tests/LiveBridgeTests/Fixtures/protocol).
import { readFileSync, readdirSync } from "node:fs";

const root = new URL("../../Tests/LiveBridgeTests/Fixtures/protocol/", import.meta.url);

/** `{name: text}` of every fixture in `client` or `server`. */
export function fixtures(side) {
  const folder = new URL(`${side}/`, root);
  const out = {};
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".json")).sort()) {
    out[file.replace(/\.json$/, "")] = readFileSync(new URL(file, folder), "utf8");
  }
  return out;
}

export const fixture = (side, name) => fixtures(side)[name];
