import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

// This app stands alone: its own dependencies, not those of the OptiGate checkout it sits in.
export default { turbopack: { root: here }, outputFileTracingRoot: here };
