/**
 * Test-only pi extension: a bridge that answers every questionnaire from elsewhere, through the
 * events (docs/elsewhere.md "In pi"). On `ask:started` it emits `ask:submit` for its `flowId`
 * with the response in PI_ASK_TEST_BRIDGE_RESPONSE (JSON: `{kind: "answer", answers}` or
 * `{kind: "cancel"}`), and appends every `ask:started` and `ask:submit-result` to the file
 * PI_ASK_TEST_BRIDGE_LOG as a JSON line `{channel, data}`.
 */

import * as fs from "node:fs";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	const log = process.env.PI_ASK_TEST_BRIDGE_LOG;
	const response = JSON.parse(process.env.PI_ASK_TEST_BRIDGE_RESPONSE ?? '{"kind": "cancel"}');
	const note = (channel: string, data: unknown) => {
		if (log) fs.appendFileSync(log, `${JSON.stringify({ channel, data })}\n`);
	};
	pi.events.on("ask:started", (data) => {
		note("ask:started", data);
		const { flowId } = data as { flowId: string };
		pi.events.emit("ask:submit", { version: 1, requestId: `bridge-${flowId}`, flowId, from: "bridge", response });
	});
	pi.events.on("ask:submit-result", (data) => note("ask:submit-result", data));
}
