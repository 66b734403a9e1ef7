// index.ts and test/faux.ts type-check against pi's own type declarations (tsconfig.json:
// strict), so an API change in pi shows up here rather than at load time in a user's pi.

import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { extDir, run } from "./helpers.mjs";

test("tsc --noEmit: the extension type-checks against pi's types", async () => {
	const tsc = path.join(extDir, "node_modules", "typescript", "bin", "tsc");
	const out = await run(process.execPath, [tsc, "-p", extDir], { cwd: extDir, timeoutMs: 180_000 });
	assert.equal(out.code, 0, `tsc reported errors:\n${out.stdout}${out.stderr}`);
	assert.equal(out.stdout, "");
});
