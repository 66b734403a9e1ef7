// The tool's TypeBox parameters must accept exactly what the binary accepts: compared with
// `pi-ask schema input` (schemars) keyword by keyword, after resolving `$ref`s and reading a
// `oneOf` of string constants as an `enum`. Descriptions may differ (the model reads the
// TypeBox ones); every validation keyword must match.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createJiti } from "jiti";
import { bin, extension, run } from "./helpers.mjs";

const jiti = createJiti(import.meta.url);
const ext = await jiti.import(extension);

const VALIDATION_KEYWORDS = [
	"type",
	"properties",
	"required",
	"additionalProperties",
	"items",
	"minItems",
	"maxItems",
	"minLength",
	"maxLength",
	"pattern",
	"enum",
	"const",
	"minimum",
	"maximum",
	"uniqueItems",
];

/** The validation keywords of `schema`, with `$ref`s into `root.$defs` resolved. */
export function normalize(schema, root = schema) {
	if (schema && typeof schema.$ref === "string") {
		const name = schema.$ref.replace(/^#\/\$defs\//, "");
		const target = root.$defs?.[name];
		if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
		const { $ref, ...rest } = schema;
		return normalize({ ...target, ...rest }, root);
	}
	const alternatives = schema.oneOf ?? schema.anyOf;
	if (alternatives && alternatives.every((a) => typeof a.const === "string")) {
		return { type: "string", enum: alternatives.map((a) => a.const) };
	}
	const out = {};
	for (const key of VALIDATION_KEYWORDS) {
		if (!(key in schema)) continue;
		const value = schema[key];
		if (key === "properties") {
			out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, root)]));
		} else if (key === "items") {
			out.items = normalize(value, root);
		} else if (key === "required") {
			out.required = [...value].sort();
		} else {
			out[key] = value;
		}
	}
	for (const key of ["oneOf", "anyOf", "allOf", "not", "if", "patternProperties", "prefixItems"]) {
		if (key in schema) throw new Error(`the comparison does not handle ${key}: ${JSON.stringify(schema)}`);
	}
	return out;
}

test("the ask_user parameters equal `pi-ask schema input`", async () => {
	const out = await run(bin, ["schema", "input"]);
	assert.equal(out.code, 0, out.stderr);
	const binary = JSON.parse(out.stdout);
	const typebox = JSON.parse(JSON.stringify(ext.askUserParameters));
	assert.deepEqual(normalize(typebox), normalize(binary));
});

test("the comparison sees a difference in any validation keyword", () => {
	const base = { type: "object", properties: { a: { type: "string", pattern: "\\S" } }, required: ["a"] };
	const changed = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
	assert.notDeepEqual(normalize(base), normalize(changed));
	const viaRef = { $defs: { A: { type: "string", pattern: "\\S" } }, type: "object", properties: { a: { $ref: "#/$defs/A" } }, required: ["a"] };
	assert.deepEqual(normalize(viaRef), normalize(base));
	const oneOf = { oneOf: [{ type: "string", const: "x" }, { type: "string", const: "y" }] };
	assert.deepEqual(normalize(oneOf), { type: "string", enum: ["x", "y"] });
});
